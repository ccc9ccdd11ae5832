import { z } from 'zod';
import type { DispatchInput, TaskExecutor, ToolGrant } from '../executor';
import { runScriptOfSkill, type SkillLoader } from '../skills';
import type { AnalystToolContext } from './context';
import { defineTool, type ToolDefinition } from './define';

/** What the dispatch/collect tools need of the executor (any TaskExecutor fits). */
export type TaskBoard = Pick<TaskExecutor, 'submit' | 'find' | 'waitFor' | 'waitAll' | 'drainCompleted' | 'acknowledge' | 'pendingCount' | 'list'>;

type Tool = ToolDefinition<z.ZodType, AnalystToolContext>;

const ids = z.array(z.string().min(1).max(80)).max(32);

/** Seed §3.4: start a sub-agent in the background; returns at once. */
export function dispatchTool(board: TaskBoard) {
  return defineTool({
    name: 'dispatch',
    description: [
      'Start a sub-agent with one skill in the background; returns at once. Independent tasks run in parallel; depends_on waits for earlier tasks (dispatch them first) and passes their summaries.',
      "context: refs like ctx_001, V-001, PK-003, a task id, integration_brief (add :summary for less). validate(_contrastive): check against the skill's Eval Criteria. retry_of: re-run a failed task under a new id. Read results with collect().",
    ].join('\n'),
    input: z.object({
      id: z.string().min(1).max(80).describe('new task id, e.g. rates_ctx'),
      skill: z.string().min(1).max(64).optional().describe('needed unless retry_of'),
      objective: z.string().min(1).max(8000).optional().describe('needed unless retry_of'),
      context: z.array(z.string().min(1).max(200)).max(40).optional(),
      notes: z.string().max(8000).optional(),
      depends_on: ids.optional(),
      validate: z.boolean().optional(),
      validate_contrastive: z.boolean().optional(),
      retry_of: z.string().min(1).max(80).optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run(input, ctx: AnalystToolContext) {
      const spec: DispatchInput = {
        id: input.id,
        skill: input.skill,
        objective: input.objective,
        context: input.context,
        notes: input.notes,
        dependsOn: input.depends_on,
        validate: input.validate,
        validateContrastive: input.validate_contrastive,
        retryOf: input.retry_of,
      };
      const t = board.submit(ctx.fs.sessionId, spec);
      const waits = t.spec.dependsOn.length ? ` | waits for: ${t.spec.dependsOn.join(', ')}` : '';
      const retry = t.spec.retryOf ? ` | retry of ${t.spec.retryOf}` : '';
      const check = t.spec.validateContrastive ? ' | contrastive validation' : t.spec.validate ? ' | validation' : '';
      return { content: `Dispatched: ${t.id} | skill: ${t.spec.skill}${waits}${retry}${check}\nUse collect('${t.id}') or collect('ready') for results.` };
    },
  });
}

/**
 * The tools a sub-agent gets for a grant: the named analyst tools it is allowed (read-only memory,
 * search, fetch) and `run_script` bound to its own skill. Anything not granted is simply absent, so
 * a call to `write` comes back as a refusal naming the tools it does have.
 */
export function subAgentToolFactory(options: {
  /** The analyst's tools to choose from (e.g. analystTools(...)); only granted names are handed out. */
  available: readonly Tool[];
  skills: SkillLoader;
  /** The tool context for a session (the host builds it: limits, providers, search). */
  contextFor: (sessionId: string) => AnalystToolContext;
}): (grant: ToolGrant) => { tools: Tool[]; context: AnalystToolContext } {
  return (grant) => {
    const tools = options.available.filter((t) => grant.allowed.includes(t.name) && t.name !== 'run_script');
    if (grant.allowed.includes('run_script')) tools.push(runScriptTool(options.skills, grant.skill) as unknown as Tool);
    const base = options.contextFor(grant.sessionId);
    const context: AnalystToolContext = {
      ...base,
      writer: { actor: `subagent:${grant.taskId}`, sessionId: grant.sessionId, taskId: grant.taskId },
      signal: grant.signal,
    };
    return { tools, context };
  };
}

/**
 * Runs a script of the sub-agent's own skill (JSON in, JSON or text out, sandboxed child process).
 * Python and shell scripts run only when the PM allowed the skill in Settings → Skills; otherwise the
 * refusal (naming that setting) is what the sub-agent reads.
 */
export function runScriptTool(skills: SkillLoader, skill: string) {
  return defineTool({
    name: 'run_script',
    description: `Run a script of the ${skill} skill (listed under Available Scripts) with a JSON input on stdin and optional command-line args; returns what the script prints (usually JSON). Scripts compute (sizing, payoffs, scenario values, summaries); they cannot reach the network or memory, and write only to a scratch folder. Python and shell scripts run only if the PM allowed this skill's scripts.`,
    input: z.object({
      script: z.string().min(1).max(200).describe('File name under scripts/, e.g. kelly.mjs or summarize.py'),
      input: z.record(z.string(), z.unknown()).default({}),
      args: z.array(z.string().max(1000)).max(32).optional().describe('command-line arguments, when the script takes them'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run(input, ctx: AnalystToolContext) {
      const r = await runScriptOfSkill(skills, skill, input.script, input.input, { signal: ctx.signal, args: input.args });
      return { content: typeof r.output === 'string' ? r.output : JSON.stringify(r.output, null, 2) };
    },
  });
}
