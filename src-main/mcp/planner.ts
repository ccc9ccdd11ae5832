import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../common/atomic-file';
import { AppError } from '../common/errors';
// Types only from llm: loading the model SDK is left to whoever builds the Model, keeping `forge mcp` quick to start.
import type { ChatMessage, Model } from '../llm/types';
import { defineTool, type ToolDefinition } from '../tools/define';
import { runAgent } from '../tools/loop';
import { CONTRACT_NAMES, isContractName } from './config';
import { parsePhases, type Phase } from './phases';
import { slugify } from './projects';

/**
 * The planner: the agent loop (tools/loop.ts, the analyst's own) with two tools — the model may
 * read governance contracts and must submit a plan in the `## Phase N — name` format that phase
 * windows read. A plan that does not parse is sent back with the problems named; the run ends
 * once a plan is saved, and fails after `maxTurns` model calls, saying why.
 */

export interface PlannerRequest {
  project_request: string;
  project_id?: string;
  project_name?: string;
}

export interface PlannerProgress {
  progress: number;
  total: number;
  message: string;
}

export interface PlannerTurn {
  turn: number;
  stop_reason: string;
  tool_calls: string[];
  input_tokens: number;
  output_tokens: number;
  note: string;
}

export interface PlannerResult {
  project_id: string;
  plan_path: string;
  contract_version: number;
  phases: { number: number; name: string }[];
  usage: { input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number; cost_usd: number | null };
  turns: PlannerTurn[];
  model: string;
}

export interface PlannerDeps {
  model: Model;
  /** Reads a governance contract for the model (markdown text or JSON). */
  readContract(name: string): Promise<string>;
  /** Saves the plan as the project's phases contract; returns its version. */
  savePlan(projectId: string, projectName: string, request: string, plan: string): number | Promise<number>;
  /** Where plan files are written: `<plansDir>/<project>/Forge/Contracts/phases.md`. */
  plansDir: string;
  maxTurns?: number;
  maxTokens?: number;
}

const SYSTEM = `You are Forge's build planner. You turn a project request into a plan that an autonomous builder will follow phase by phase.

Write the plan in markdown. Every phase starts with a heading of exactly this form:
## Phase N — short name
Number phases from 0 without gaps. Phase 0 sets up the project skeleton, tooling and a first passing test.
Under each heading give: the objective in one or two sentences, a "Deliverables" list of concrete files or features, and "Exit criteria" the builder can verify by running tests.
Keep each phase small enough to build and test in one sitting. Prefer 4 to 10 phases. Do not write code.

You may call read_contract to read a governance contract (for example stack or boundaries) when the request depends on it.
When the plan is ready, call submit_plan with the whole plan. If it is refused, fix the problems it names and submit again.`;

/** What is wrong with a plan, in words the model can act on; empty when it is usable. */
export function planProblems(plan: string): { phases: Phase[]; problems: string[] } {
  const phases = parsePhases(plan);
  const problems: string[] = [];
  if (phases.length < 2) problems.push(`The plan has ${phases.length} phase heading(s); write at least 2, each as "## Phase N — name".`);
  phases.forEach((p, i) => {
    if (p.number !== i) problems.push(`Phase headings must be numbered 0, 1, 2 ... without gaps; heading ${i + 1} says Phase ${p.number}.`);
    if (!p.name) problems.push(`Phase ${p.number} has no name after the dash.`);
    if (p.text.split('\n').slice(1).join('\n').trim().length < 20) problems.push(`Phase ${p.number} has no deliverables under its heading.`);
  });
  return { phases, problems };
}

const readable = () => CONTRACT_NAMES.filter((n) => n !== 'phases');

/** What the planner's tools reach during one run. */
interface PlannerRun {
  deps: PlannerDeps;
  projectId: string;
  projectName: string;
  request: string;
  /** The turn being answered (its note records what happened to a submitted plan). */
  current(): PlannerTurn | undefined;
  accepted: { phases: Phase[]; version: number; planPath: string } | null;
}

type PlannerTool = ToolDefinition<z.ZodType, PlannerRun>;

/** Checks a plan and, when it is usable, saves it (contract version + plan file); else the problems, as an error result. */
async function acceptPlan(run: PlannerRun, plan: string): Promise<{ ok: true; message: string } | { ok: false; message: string }> {
  const { phases, problems } = planProblems(plan);
  const turn = run.current();
  if (problems.length) {
    if (turn) turn.note = `plan refused: ${problems.join(' ')}`;
    return { ok: false, message: `The plan was refused. ${problems.join(' ')} Fix these and submit the whole plan again.` };
  }
  const version = await run.deps.savePlan(run.projectId, run.projectName, run.request, plan);
  const dir = join(run.deps.plansDir, run.projectId, 'Forge', 'Contracts');
  mkdirSync(dir, { recursive: true });
  const planPath = join(dir, 'phases.md');
  writeFileAtomic(planPath, plan, 0o644);
  run.accepted = { phases, version, planPath };
  if (turn) turn.note = `plan accepted: ${phases.length} phases`;
  return { ok: true, message: `Plan saved as version ${version} of the phases contract (${phases.length} phases).` };
}

const TOOLS: PlannerTool[] = [
  defineTool({
    name: 'read_contract',
    description: `Read one governance contract by name (${readable().join(', ')}).`,
    input: z.object({ name: z.string().min(1).max(100) }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async run({ name }, run: PlannerRun) {
      if (!isContractName(name) || name === 'phases') return { isError: true, content: `Unknown contract "${name}". Readable: ${readable().join(', ')}.` };
      try {
        return { content: await run.deps.readContract(name) };
      } catch (e) {
        return { isError: true, content: (e as Error).message };
      }
    },
  }) as unknown as PlannerTool,
  defineTool({
    name: 'submit_plan',
    description: 'Submit the complete plan in markdown with "## Phase N — name" headings.',
    input: z.object({ plan: z.string().max(200_000) }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    async run({ plan }, run: PlannerRun) {
      const r = await acceptPlan(run, plan);
      return r.ok ? { content: r.message } : { isError: true, content: r.message };
    },
  }) as unknown as PlannerTool,
];

export async function runPlanner(
  deps: PlannerDeps,
  request: PlannerRequest,
  onProgress: (p: PlannerProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<PlannerResult> {
  const maxTurns = deps.maxTurns ?? 6;
  const projectName = request.project_name ?? request.project_request.split(/[.\n]/)[0].slice(0, 60).trim();
  const projectId = request.project_id ?? slugify(projectName);
  const usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0 as number | null };
  const turns: PlannerTurn[] = [];
  let model = '';
  const run: PlannerRun = { deps, projectId, projectName, request: request.project_request, current: () => turns[turns.length - 1], accepted: null };
  const messages: ChatMessage[] = [{ role: 'user', content: `Project request:\n\n${request.project_request}` }];

  // The loop ends when the model answers in text; the planner then asks again (a text answer that
  // parses as a plan is accepted too), until a plan is saved or the turns are spent.
  while (turns.length < maxTurns && !run.accepted) {
    onProgress({ progress: turns.length, total: maxTurns, message: `Planner turn ${turns.length + 1} of at most ${maxTurns}` });
    const result = await runAgent({
      model: deps.model,
      role: 'planner',
      system: [{ text: SYSTEM, stable: true }],
      messages,
      tools: TOOLS,
      toolContext: run,
      maxRounds: maxTurns - turns.length,
      maxTokens: deps.maxTokens ?? 8000,
      signal,
      endWhen: () => run.accepted !== null,
      onEvent: (e) => {
        if (e.type === 'usage') {
          usage.input_tokens += e.usage.inputTokens;
          usage.output_tokens += e.usage.outputTokens;
          usage.cache_read_tokens += e.usage.cacheReadTokens;
          usage.cache_write_tokens += e.usage.cacheWriteTokens;
          usage.cost_usd = usage.cost_usd === null || e.usage.costUsd === null ? null : usage.cost_usd + e.usage.costUsd;
          model = e.model;
          turns.push({
            turn: turns.length + 1,
            stop_reason: e.stopReason,
            tool_calls: [],
            input_tokens: e.usage.inputTokens + e.usage.cacheReadTokens + e.usage.cacheWriteTokens,
            output_tokens: e.usage.outputTokens,
            note: '',
          });
          onProgress({ progress: turns.length, total: maxTurns, message: `Planner turn ${turns.length} answered` });
        } else if (e.type === 'tool_call') {
          turns[turns.length - 1]?.tool_calls.push(e.call.name);
        }
      },
    });
    messages.push(...result.added);
    if (run.accepted || result.stop !== 'answered') break;
    const last = run.current();
    if (result.text.includes('## Phase')) {
      const r = await acceptPlan(run, result.text);
      if (r.ok) break;
      messages.push({ role: 'user', content: `${r.message.replace('submit the whole plan again', 'call submit_plan with the whole plan')}` });
    } else {
      if (last && !last.note) last.note = 'no plan submitted';
      messages.push({ role: 'user', content: 'No plan was submitted. Call submit_plan with the complete plan.' });
    }
  }

  if (!run.accepted) {
    throw new PlannerGaveUpError(
      `The planner did not produce a usable plan in ${maxTurns} turns (last problem: ${turns[turns.length - 1]?.note || 'none recorded'}). Rephrase the request with more detail and run it again.`,
      turns,
    );
  }
  const { phases, version, planPath } = run.accepted;
  onProgress({ progress: maxTurns, total: maxTurns, message: `Plan saved: ${phases.length} phases` });
  return {
    project_id: projectId,
    plan_path: planPath,
    contract_version: version,
    phases: phases.map((p) => ({ number: p.number, name: p.name })),
    usage,
    turns,
    model,
  };
}

export class PlannerGaveUpError extends AppError {
  constructor(
    message: string,
    readonly turns: PlannerTurn[],
  ) {
    super('blocked', message);
    this.name = 'PlannerGaveUpError';
  }
}
