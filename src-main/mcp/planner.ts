import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file';
import { AppError } from '../common/errors';
// Types only: loading the model SDK is left to whoever builds the Model, keeping `forge mcp` quick to start.
import { addUsage, type ChatMessage, type ContentBlock, type Model, type ToolDefinition, type Usage } from '../llm';
import { CONTRACT_NAMES, isContractName } from './config';
import { parsePhases, type Phase } from './phases';
import { slugify } from './projects';

/**
 * The planner: a bounded loop in which the planner model may read governance contracts and must
 * submit a plan in the `## Phase N — name` format that phase windows read. A plan that does not
 * parse is sent back with the problems named; after `maxTurns` the run fails and says why.
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

const TOOLS: ToolDefinition[] = [
  {
    name: 'read_contract',
    description: `Read one governance contract by name (${CONTRACT_NAMES.filter((n) => n !== 'phases').join(', ')}).`,
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  {
    name: 'submit_plan',
    description: 'Submit the complete plan in markdown with "## Phase N — name" headings.',
    inputSchema: { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] },
  },
];

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

export async function runPlanner(
  deps: PlannerDeps,
  request: PlannerRequest,
  onProgress: (p: PlannerProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<PlannerResult> {
  const maxTurns = deps.maxTurns ?? 6;
  const projectName = request.project_name ?? request.project_request.split(/[.\n]/)[0].slice(0, 60).trim();
  const projectId = request.project_id ?? slugify(projectName);
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, costUsd: 0 };
  const turns: PlannerTurn[] = [];
  const messages: ChatMessage[] = [{ role: 'user', content: `Project request:\n\n${request.project_request}` }];

  for (let turn = 1; turn <= maxTurns; turn++) {
    signal?.throwIfAborted();
    onProgress({ progress: turn - 1, total: maxTurns, message: `Planner turn ${turn} of at most ${maxTurns}` });
    const res = await deps.model.call({ role: 'planner', system: SYSTEM, messages, tools: TOOLS, maxTokens: deps.maxTokens ?? 8000, signal });
    addUsage(usage, res.usage);
    messages.push({ role: 'assistant', content: res.content });
    const record: PlannerTurn = {
      turn,
      stop_reason: res.stopReason,
      tool_calls: res.toolCalls.map((c) => c.name),
      input_tokens: res.usage.inputTokens + res.usage.cacheReadTokens + res.usage.cacheWriteTokens,
      output_tokens: res.usage.outputTokens,
      note: '',
    };
    turns.push(record);

    // A plan written as plain text (no tool call) is accepted too, if it parses.
    const candidates: { plan: string; callId?: string }[] = res.toolCalls
      .filter((c) => c.name === 'submit_plan')
      .map((c) => ({ plan: String(c.input.plan ?? ''), callId: c.id }));
    if (res.toolCalls.length === 0 && res.text.includes('## Phase')) candidates.push({ plan: res.text });

    for (const c of candidates) {
      const { phases, problems } = planProblems(c.plan);
      if (problems.length === 0) {
        record.note = `plan accepted: ${phases.length} phases`;
        const version = await deps.savePlan(projectId, projectName, request.project_request, c.plan);
        const dir = join(deps.plansDir, projectId, 'Forge', 'Contracts');
        mkdirSync(dir, { recursive: true });
        const planPath = join(dir, 'phases.md');
        writeFileAtomic(planPath, c.plan, 0o644);
        onProgress({ progress: maxTurns, total: maxTurns, message: `Plan saved: ${phases.length} phases` });
        return {
          project_id: projectId,
          plan_path: planPath,
          contract_version: version,
          phases: phases.map((p) => ({ number: p.number, name: p.name })),
          usage: {
            input_tokens: usage.inputTokens,
            output_tokens: usage.outputTokens,
            cache_read_tokens: usage.cacheReadTokens,
            cache_write_tokens: usage.cacheWriteTokens,
            cost_usd: usage.costUsd,
          },
          turns,
          model: res.model,
        };
      }
      record.note = `plan refused: ${problems.join(' ')}`;
    }

    const results: ContentBlock[] = [];
    for (const call of res.toolCalls) {
      if (call.name === 'read_contract') {
        const name = String(call.input.name ?? '');
        let content: string;
        let isError = false;
        if (!isContractName(name) || name === 'phases') {
          content = `Unknown contract "${name}". Readable: ${CONTRACT_NAMES.filter((n) => n !== 'phases').join(', ')}.`;
          isError = true;
        } else {
          try {
            content = await deps.readContract(name);
          } catch (e) {
            content = (e as Error).message;
            isError = true;
          }
        }
        results.push({ type: 'tool_result', toolUseId: call.id, content, isError });
      } else if (call.name === 'submit_plan') {
        results.push({ type: 'tool_result', toolUseId: call.id, content: `The plan was refused. ${record.note.replace(/^plan refused: /, '')} Fix these and submit the whole plan again.`, isError: true });
      } else {
        results.push({ type: 'tool_result', toolUseId: call.id, content: `There is no tool "${call.name}". Use read_contract or submit_plan.`, isError: true });
      }
    }
    if (results.length) messages.push({ role: 'user', content: results });
    else {
      if (!record.note) record.note = 'no plan submitted';
      messages.push({ role: 'user', content: `${record.note.startsWith('plan refused') ? record.note : 'No plan was submitted.'} Call submit_plan with the complete plan.` });
    }
  }
  throw new PlannerGaveUpError(
    `The planner did not produce a usable plan in ${maxTurns} turns (last problem: ${turns[turns.length - 1]?.note || 'none recorded'}). Rephrase the request with more detail and run it again.`,
    turns,
  );
}

export class PlannerGaveUpError extends AppError {
  constructor(message: string, readonly turns: PlannerTurn[]) {
    super('blocked', message);
    this.name = 'PlannerGaveUpError';
  }
}
