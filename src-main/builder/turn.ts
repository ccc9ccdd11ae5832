import type { ChatMessage } from '../llm/types';
import { textOf } from '../llm/types';
import { AppError } from '../common/errors';
import { samePhaseId, Scratchpad } from '../mcp';
import { runAgent } from '../tools/loop';
import { toModelTool, type ToolDefinition } from '../tools/define';
import type { BuildHost } from './build-host';
import { forgeContext, phaseIdOf, short, systemFor, toolsFor } from './build-context';
import { compactRun } from './compact-run';
import { compactionDecision, contractsRead } from './compaction';
import { type BuilderTestRun, recordTestRuns } from './fix-attempts';
import type { ForgeToolHost } from './forge-tools';
import { parseMarkers } from './markers';
import { nudge, unknownStopCode } from './messages';
import { type WindowGateHost, windowGateRefusal } from './phase-gate';
import { signOff } from './sign-off';
import type { BuildRun, RunnerState } from './store-rows';
import { countBuilderContext } from './tokens';
import type { ProjectToolContext } from './workspace';

/**
 * One model turn of a build: say what is waiting to be said (or nudge an idle builder), stream the
 * turn with its tool calls through the window gate, save it, then act on the markers it wrote — a
 * plan, tasks done, a STOP code, a sign-off (sign-off.ts) — and compact at a boundary when the
 * context is near its limit (compact-run.ts). runner.ts calls this in a loop; everything a turn
 * changes is saved before it returns, so the next turn (or a restart) reads it back from the store.
 */

const MAX_IDLE_NUDGES = 3;
const MAX_TOKENS_PER_TURN = 8192;

export async function runTurn(host: BuildHost, run: BuildRun, signal: AbortSignal): Promise<void> {
  const { store } = host.deps;
  const id = run.id;
  const state = run.state;
  const settings = host.deps.settings();
  const phase = store.phases(id).find((p) => p.number === run.currentPhase) ?? { number: run.currentPhase, name: '', status: 'in_progress' as const };

  // Messages waiting to be said (a gate reminder, the answer to a STOP, a phase advance) go first.
  let messages = store.messages(id);
  const outgoing = state.pending.splice(0);
  if (outgoing.length) {
    const text = outgoing.join('\n\n');
    // After tool results the text joins that user turn; after an answer it is a new user turn.
    const merged = messages.at(-1)?.role === 'user' ? store.appendToLastMessage(id, text) : null;
    if (merged) messages = [...messages.slice(0, -1), merged];
    else {
      const add: ChatMessage = { role: 'user', content: [{ type: 'text', text }] };
      store.appendMessages(id, [add]);
      messages = [...messages, add];
    }
  } else if (messages.at(-1)?.role === 'assistant') {
    // The model answered without a marker or a tool call last time.
    if (++state.idleNudges > MAX_IDLE_NUDGES) {
      throw new AppError(
        'internal',
        `The builder answered ${MAX_IDLE_NUDGES} times in a row without working or emitting a marker; the build was stopped. Read its last answer in the log, then Resume.`,
      );
    }
    const add: ChatMessage = { role: 'user', content: [{ type: 'text', text: nudge() }] };
    store.appendMessages(id, [add]);
    messages = [...messages, add];
  }
  store.saveState(id, state);

  const tools = toolsFor(run.mode);
  const system = systemFor(run.projectName, run.mode);
  const testRuns: BuilderTestRun[] = [];
  const forgeCalls: { name: string; input: Record<string, unknown> }[] = [];
  const phaseId = phaseIdOf(state, phase.number);
  const ctx: ProjectToolContext & ForgeToolHost & WindowGateHost = {
    workDir: run.workDir,
    allowedCommands: settings.allowedCommands,
    signal,
    sandbox: host.sandboxFor(id, signal),
    onTestRun: (r) => testRuns.push(r),
    forge: forgeContext(run, host.deps, host.sources),
    onForgeCall: (name, input) => {
      forgeCalls.push({ name, input });
      // Reading this phase's window (of this build's plan) opens its gate for the rest of the phase, across turns.
      const ownPlan = input.project_id === undefined || input.project_id === run.projectId;
      if (name === 'forge_get_phase_window' && ownPlan && samePhaseId(String(input.phase_number), phaseId)) state.windowRead = phaseId;
    },
    windowGate: (tool) => {
      if (state.windowRead !== null && samePhaseId(state.windowRead, phaseId)) return null;
      host.log(id, 'gate', `${tool} refused: Phase ${phaseId}'s window has not been read in this phase.`, { isError: true });
      return windowGateRefusal(phaseId, tool);
    },
  };
  const model = host.deps.model();
  const result = await runAgent({
    model,
    role: 'builder',
    modelId: run.model.startsWith('scripted:') ? undefined : run.model,
    system,
    messages,
    tools,
    toolContext: ctx,
    maxRounds: 1,
    maxTokens: MAX_TOKENS_PER_TURN,
    signal,
    onEvent: (e) => {
      if (e.type === 'tool_call') host.log(id, 'tool_call', `${e.call.name}(${short(JSON.stringify(e.call.input), 300)})`, { tool: e.call.name });
      else if (e.type === 'tool_result') host.log(id, 'tool_result', e.result.content, { tool: e.name, isError: !!e.result.isError });
    },
  });
  store.appendMessages(id, result.added);
  state.turns++;
  const conversation = [...messages, ...result.added];
  const tokens = countBuilderContext({ system, tools: tools.map((t) => toModelTool(t as ToolDefinition)), messages: conversation });
  store.addTurn(
    id,
    state.turns,
    {
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      cacheReadTokens: result.usage.cacheReadTokens,
      costUsd: result.usage.costUsd,
    },
    tokens.conversation,
  );
  const text = result.added
    .filter((m) => m.role === 'assistant')
    .map((m) => (typeof m.content === 'string' ? m.content : textOf(m.content)))
    .join('\n');
  if (text.trim()) host.log(id, 'text', text);
  const madeCalls = result.stop === 'max_rounds';
  if (madeCalls) state.idleNudges = 0;

  await recordContractsRead(run, state, forgeCalls);
  await recordTestRuns(host, run, state, phase, testRuns, signal);

  // Markers.
  const markers = parseMarkers(text);
  let boundary = false;
  if (markers.plan?.length) {
    store.setPlan(id, phase.number, markers.plan);
    host.log(id, 'marker', `Plan for Phase ${phaseId}: ${markers.plan.length} tasks.`);
    state.idleNudges = 0;
  }
  if (markers.tasksDone.length) {
    const unknown = store.markTasks(id, phase.number, markers.tasksDone);
    host.log(id, 'marker', `Task${markers.tasksDone.length > 1 ? 's' : ''} done: ${markers.tasksDone.join(', ')}.`);
    if (unknown.length) state.pending.push(`Task ${unknown.join(', ')} is not in your plan for Phase ${phaseId}; mark the plan's task numbers.`);
    boundary = true;
    state.idleNudges = 0;
  }
  if (markers.unknownStop) state.pending.push(unknownStopCode(markers.unknownStop));
  if (markers.stop) {
    store.saveState(id, state);
    store.setStop(id, markers.stop);
    host.log(id, 'marker', `STOP ${markers.stop.code}: ${markers.stop.reason}`);
    host.changed(id);
    return;
  }
  if (markers.signOff) {
    boundary = true;
    state.idleNudges = 0;
    const advanced = await signOff(host, run, state, phase, markers.signOff, signal);
    if (advanced === 'completed') {
      store.saveState(id, state);
      return;
    }
  }

  // Compaction, at a TASK DONE or sign-off boundary when one is near.
  const decision = compactionDecision({
    conversationTokens: tokens.conversation,
    limitTokens: run.limitTokens,
    share: settings.compactAtShare,
    atBoundary: boundary,
  });
  state.compactionPending = decision === 'wait';
  if (decision === 'now') await compactRun(host, run, state, tokens.conversation, signal);

  store.saveState(id, state);
  host.changed(id);
}

async function recordContractsRead(run: BuildRun, state: RunnerState, calls: { name: string; input: Record<string, unknown> }[]): Promise<void> {
  const read = contractsRead(
    calls.map((c, i) => ({ role: 'assistant', content: [{ type: 'tool_use', id: `c${i}`, name: c.name, input: c.input }] }) as ChatMessage),
  );
  const fresh = read.filter((r) => !state.contractsRead.includes(r));
  if (!fresh.length) return;
  state.contractsRead.push(...fresh);
  // Kept where the builder can read it after a compaction (and where a restart finds it).
  await new Scratchpad(run.workDir).run('write', 'contracts_read', state.contractsRead.join(', '));
}
