import type { BuildDetail, BuildLogEntry, BuildMode, BuildSummary, CommandConsentRequest } from '../api/builds';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, ConflictError } from '../common/errors';
import { countBuilderContext } from './tokens';
import type { ChatMessage, Model, SystemBlock } from '../llm/types';
import { textOf } from '../llm/types';
import {
  type ArtifactStore,
  builderSystemPrompt,
  LocalSource,
  McpSession,
  packageWindow,
  phaseWindow,
  type ProjectStore,
  samePhaseId,
  Scratchpad,
  SCRATCHPAD_FILE,
} from '../mcp';
import { readSpecPackage, type SpecPackage } from '../specs';
import { CancelledError, runAgent } from '../tools/loop';
import { toModelTool, type ToolDefinition } from '../tools/define';
import type { z } from 'zod';
import { CommandConsent } from './command-consent';
import { compactConversation, compactionDecision, contractsRead, COMPACTION_PROMPT, transcriptForSummary } from './compaction';
import { forgeTools, type ForgeToolHost } from './forge-tools';
import { parseMarkers } from './markers';
import {
  firstMessage,
  nudge,
  phaseAdvanceMessage,
  projectBrief,
  RECOVERY_PLANNER_PROMPT,
  recoveryPlanMessage,
  recoveryRequest,
  signOffRejected,
  stopAnswered,
  unknownStopCode,
} from './messages';
import { pinnedDocumentTexts } from './audit';
import { checkSignOff, type WindowGateHost, windowGateRefusal, withWindowGate } from './phase-gate';
import { packageLead, pinBuild, readBuildPackage, readBuildPlan, readContracts } from './prepare';
import type { BuildRun, BuildStore, RunnerState } from './store';
import {
  type CommandSandbox,
  DEFAULT_ALLOWED_COMMANDS,
  diffSummary,
  diffWorkspace,
  PROJECT_TOOLS,
  type ProjectToolContext,
  snapshotWorkspace,
  workspaceListing,
} from './workspace';

/**
 * The builder's state machine on the analyst's agent loop. One model turn at a time: stream it,
 * run its tool calls, save the conversation, then read the markers it wrote — a plan, tasks done,
 * a sign-off (checked by running the tests and auditing), a STOP code (the build waits for the
 * user). Every write and command first passes the window gate (phase-gate.ts); between turns it
 * applies the fix-attempt limit and compaction.
 * Everything is saved after every turn, so a build resumes after a restart where it stopped.
 */

export interface BuilderSettings {
  useMcpContracts: boolean;
  allowedCommands: readonly string[];
  contextLimitTokens: number;
  compactAtShare: number;
}

export const DEFAULT_BUILDER_SETTINGS: BuilderSettings = {
  useMcpContracts: true,
  allowedCommands: [...DEFAULT_ALLOWED_COMMANDS],
  contextLimitTokens: 150_000,
  compactAtShare: 0.7,
};

export interface BuilderDeps {
  store: BuildStore;
  projects: () => Promise<ProjectStore>;
  artifacts: ArtifactStore;
  /** The builder's model (the `builder` role unless a build names a model). Throws when none is configured. */
  model: () => Model;
  /** Models for the side jobs — compaction (`compact`), the auditor (`review`), the recovery planner (`planner`). */
  helperModel?: (role: 'compact' | 'review' | 'planner') => Model | undefined;
  /** The model id a build uses when none is given. */
  defaultModelId: () => string;
  settings: () => BuilderSettings;
  onChanged?: (summary: BuildSummary) => void;
  onLog?: (buildId: string, entry: BuildLogEntry) => void;
  /** Turns per build before it is failed as stuck (default 600). */
  maxTurns?: number;
  /** Where bubblewrap lives (default: `bwrap` on PATH); null: none, so commands need the PM's consent. */
  bwrapPath?: string | null;
  /** A command waits for the PM's Allow or Deny (no sandbox on this machine). */
  onCommandConsent?: (buildId: string, request: CommandConsentRequest) => void;
}

const MAX_IDLE_NUDGES = 3;
const MAX_FIX_ATTEMPTS = 3;
const MAX_TOKENS_PER_TURN = 8192;

interface Live {
  controller: AbortController;
  done: Promise<void>;
}

export class BuildManager {
  private readonly live = new Map<string, Live>();
  /** Contract readers per working directory (each caches parsed contracts, checked against file times). */
  private readonly sources = new Map<string, LocalSource>();
  private readonly consent: CommandConsent;
  private closed = false;

  constructor(private readonly deps: BuilderDeps) {
    // Builds that were running when the app last stopped wait for the user to resume them.
    deps.store.markInterrupted();
    this.consent = new CommandConsent(deps.store, {
      asked: (id, request) => {
        this.log(id, 'status', `Waiting for the PM: may "${request.commandLine}" run? ${request.notice}`);
        deps.onCommandConsent?.(id, request);
        this.changed(id);
      },
      answered: (id, request, allowed) => {
        this.log(id, 'user', allowed ? `Allowed ${request.commandClass} commands to run unconfined in this build.` : `Denied "${request.commandLine}".`);
        this.changed(id);
      },
    });
  }

  list(): BuildSummary[] {
    return this.deps.store.list();
  }

  detail(id: string): BuildDetail {
    const run = this.deps.store.get(id);
    const commands = { ...this.deps.store.commandSettings(id), consent: this.consent.waiting(id) };
    return { ...this.deps.store.detail(id, scratchpadEntries(run.workDir)), commands };
  }

  /** The PM's Allow or Deny for a command waiting to run unconfined. */
  decideCommand(id: string, requestId: string, allow: boolean): BuildSummary {
    this.deps.store.get(id);
    this.consent.decide(id, requestId, allow);
    return this.changed(id);
  }

  /** "Allow network for this build": applies from the build's next command on. */
  setNetwork(id: string, allow: boolean): BuildSummary {
    this.deps.store.get(id);
    this.deps.store.setAllowNetwork(id, allow);
    this.log(id, 'user', allow ? "Network allowed for this build's commands." : "Network turned off for this build's commands.");
    return this.changed(id);
  }

  /** How this build's commands are confined: the sandbox with its network switch, or the PM's consent where there is none. */
  private sandboxFor(id: string, signal: AbortSignal): CommandSandbox {
    const store = this.deps.store;
    return {
      bwrapPath: this.deps.bwrapPath,
      get allowNetwork() {
        return store.commandSettings(id).allowNetwork;
      },
      askUnconfined: (request) => this.consent.ask(id, request, signal),
    };
  }

  async start(input: { workDir: string; model?: string; mode?: BuildMode; mini?: boolean; projectId?: string; feature?: string }): Promise<BuildSummary> {
    const settings = this.deps.settings();
    const mode: BuildMode = input.mode ?? (settings.useMcpContracts ? 'mcp' : 'dump');
    // The folder and the feature first: a PM who mistyped the path must hear that, not that a key is missing.
    const plan = await readBuildPlan({
      workDir: input.workDir,
      mini: !!input.mini,
      projectId: input.projectId,
      feature: input.feature,
      projects: this.deps.projects,
    });
    // Then the key and the model, before the snapshot is pinned (nothing written for a build that cannot run).
    this.deps.model();
    const projects = await this.deps.projects();
    const prepared = pinBuild(plan, { projects, projectName: (lead) => projectBrief(lead).name });
    for (const other of this.deps.store.list()) {
      if (other.workDir === prepared.workDir && (other.status === 'running' || other.status === 'waiting_answer' || other.status === 'paused')) {
        throw new ConflictError(`Build ${other.id} is already working in ${prepared.workDir} (${other.status}); stop it first, or resume it.`);
      }
    }
    const model = input.model ?? this.deps.defaultModelId();
    const tools = toolsFor(mode);
    const brief = projectBrief(prepared.package ? packageLead(prepared.package) : (prepared.contracts.find((c) => c.name === 'blueprint')?.text ?? ''));
    const firstPhase = prepared.phases[0]!;
    const system = systemFor(brief.name, mode);
    this.deps.store.create({
      id: prepared.id,
      workDir: prepared.workDir,
      projectName: brief.name,
      projectId: prepared.plannerProject,
      mode,
      mini: !!input.mini,
      model,
      limitTokens: settings.contextLimitTokens,
      fixedTokens: fixedTokens(system, tools),
      phases: prepared.phases.map((p) => ({ number: p.number, name: p.name })),
    });
    const first = firstMessage({
      projectName: brief.name,
      description: brief.description,
      listing: await workspaceListing(prepared.workDir),
      mode,
      firstPhase: { id: firstPhase.id, name: firstPhase.name },
      ...(mode === 'dump'
        ? {
            contractsDump: prepared.package ? dumpOf(prepared.package) : prepared.contracts.map((c) => ({ name: c.name, file: c.file, text: c.text })),
            phaseWindow: windowText(prepared.package ?? prepared.phasesText, firstPhase.id),
          }
        : {}),
    });
    this.deps.store.appendMessages(prepared.id, [{ role: 'user', content: [{ type: 'text', text: first }] }]);
    const state = this.deps.store.get(prepared.id).state;
    state.phaseStart = await snapshotWorkspace(prepared.workDir);
    state.phaseIds = Object.fromEntries(prepared.phases.map((p) => [String(p.number), p.id]));
    // A resumed or restarted build reads the same feature again, not whichever is newest by then.
    if (plan.feature) state.feature = plan.feature;
    // Dump mode carries the window in the message: its gate is open from the start.
    state.windowRead = mode === 'dump' ? firstPhase.id : null;
    this.deps.store.saveState(prepared.id, state);
    this.deps.store.startPhase(prepared.id, firstPhase.number);
    this.log(
      prepared.id,
      'status',
      `Build started in ${prepared.workDir} (${plan.feature ? `${plan.package?.format === 'openspec' ? 'change' : 'feature'} ${plan.feature}, ` : ''}${mode === 'mcp' ? 'contracts fetched on demand' : 'contracts in the first message'}, model ${model}).`,
    );
    this.launch(prepared.id);
    return this.changed(prepared.id);
  }

  pause(id: string): BuildSummary {
    const run = this.deps.store.get(id);
    if (run.status !== 'running') throw new ConflictError(`Build ${id} is ${run.status}; only a running build can be paused.`);
    this.deps.store.setStatus(id, 'paused');
    this.live.get(id)?.controller.abort();
    this.log(id, 'status', 'Paused by the user; Resume continues from the last saved turn.');
    return this.changed(id);
  }

  resume(id: string): BuildSummary {
    const run = this.deps.store.get(id);
    if (!['paused', 'failed', 'interrupted'].includes(run.status)) {
      throw new ConflictError(
        run.status === 'waiting_answer'
          ? `Build ${id} is waiting for your answer to ${run.stop?.code}; answer it to continue.`
          : `Build ${id} is ${run.status} and cannot be resumed.`,
      );
    }
    if (this.live.has(id)) throw new ConflictError(`Build ${id} is still stopping; try again in a moment.`);
    this.deps.model();
    // A resume is the user's go-ahead: the stuck-build limits count again from here.
    const state = run.state;
    state.idleNudges = 0;
    state.resumedAtTurn = state.turns;
    this.deps.store.saveState(id, state);
    this.deps.store.setStatus(id, 'running');
    this.log(id, 'status', 'Resumed.');
    this.launch(id);
    return this.changed(id);
  }

  stop(id: string): BuildSummary {
    const run = this.deps.store.get(id);
    if (run.status === 'completed' || run.status === 'stopped')
      throw new ConflictError(`Build ${id} has already ${run.status === 'completed' ? 'completed' : 'stopped'}.`);
    this.deps.store.setStatus(id, 'stopped', 'Stopped by the user.');
    this.live.get(id)?.controller.abort();
    this.log(id, 'status', 'Stopped by the user.');
    return this.changed(id);
  }

  answer(id: string, text: string): BuildSummary {
    const run = this.deps.store.get(id);
    if (run.status !== 'waiting_answer' || !run.stop) throw new ConflictError(`Build ${id} is not waiting for an answer (it is ${run.status}).`);
    const state = run.state;
    state.pending.push(stopAnswered(run.stop.code, text));
    state.idleNudges = 0;
    this.deps.store.saveState(id, state);
    this.deps.store.setStop(id, null);
    this.deps.store.setStatus(id, 'running');
    this.log(id, 'user', `Answer to ${run.stop.code}: ${text}`);
    this.launch(id);
    return this.changed(id);
  }

  /** Waits for a build's current drive to finish (tests and `forge build`). */
  async settled(id: string): Promise<void> {
    await this.live.get(id)?.done;
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = [...this.live.entries()];
    for (const [, l] of running) l.controller.abort();
    await Promise.allSettled(running.map(([, l]) => l.done));
    // Still 'running' in the database: the next start marks them interrupted.
  }

  // --- the drive --------------------------------------------------------------------------

  private launch(id: string): void {
    if (this.closed) return;
    // An answer can arrive while the drive that stopped on the STOP code is still unwinding:
    // start again once it has (the new drive reads the status, so it never runs twice).
    const current = this.live.get(id);
    if (current) {
      void current.done.then(() => this.launch(id));
      return;
    }
    const controller = new AbortController();
    const done = this.drive(id, controller.signal)
      .catch((e) => this.failed(id, e))
      .finally(() => {
        this.live.delete(id);
      });
    this.live.set(id, { controller, done });
  }

  private failed(id: string, e: unknown): void {
    const run = this.deps.store.get(id);
    if (e instanceof CancelledError || this.closed || run.status !== 'running') return; // paused, stopped, or the app is closing (marked interrupted on the next start)
    const message = e instanceof AppError ? e.message : `The build stopped on an unexpected error: ${(e as Error)?.message ?? String(e)}`;
    this.deps.store.setStatus(id, 'failed', message);
    this.log(id, 'error', message, { isError: true });
    this.changed(id);
  }

  private async drive(id: string, signal: AbortSignal): Promise<void> {
    const maxTurns = this.deps.maxTurns ?? 600;
    for (;;) {
      const run = this.deps.store.get(id);
      if (run.status !== 'running' || signal.aborted || this.closed) return;
      if (run.state.turns - run.state.resumedAtTurn >= maxTurns)
        throw new AppError(
          'internal',
          `The build used ${maxTurns} turns without finishing; it was stopped as stuck. Read the log, then Resume or start again.`,
        );
      await this.turn(run, signal);
    }
  }

  private async turn(run: BuildRun, signal: AbortSignal): Promise<void> {
    const { store } = this.deps;
    const id = run.id;
    const state = run.state;
    const settings = this.deps.settings();
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
    const testRuns: { passed: boolean; failingTests: string[]; command: string; exitCode: number | null; output: string }[] = [];
    const forgeCalls: { name: string; input: Record<string, unknown> }[] = [];
    const phaseId = phaseIdOf(state, phase.number);
    const ctx: ProjectToolContext & ForgeToolHost & WindowGateHost = {
      workDir: run.workDir,
      allowedCommands: settings.allowedCommands,
      signal,
      sandbox: this.sandboxFor(id, signal),
      onTestRun: (r) => testRuns.push(r),
      forge: forgeContext(run, this.deps, this.sources),
      onForgeCall: (name, input) => {
        forgeCalls.push({ name, input });
        // Reading this phase's window (of this build's plan) opens its gate for the rest of the phase, across turns.
        const ownPlan = input.project_id === undefined || input.project_id === run.projectId;
        if (name === 'forge_get_phase_window' && ownPlan && samePhaseId(String(input.phase_number), phaseId)) state.windowRead = phaseId;
      },
      windowGate: (tool) => {
        if (state.windowRead !== null && samePhaseId(state.windowRead, phaseId)) return null;
        this.log(id, 'gate', `${tool} refused: Phase ${phaseId}'s window has not been read in this phase.`, { isError: true });
        return windowGateRefusal(phaseId, tool);
      },
    };
    const model = this.deps.model();
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
        if (e.type === 'tool_call') this.log(id, 'tool_call', `${e.call.name}(${short(JSON.stringify(e.call.input), 300)})`, { tool: e.call.name });
        else if (e.type === 'tool_result') this.log(id, 'tool_result', e.result.content, { tool: e.name, isError: !!e.result.isError });
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
    if (text.trim()) this.log(id, 'text', text);
    const madeCalls = result.stop === 'max_rounds';
    if (madeCalls) state.idleNudges = 0;

    await this.recordContractsRead(run, state, forgeCalls);
    await this.recordTestRuns(run, state, phase, testRuns, signal);

    // Markers.
    const markers = parseMarkers(text);
    let boundary = false;
    if (markers.plan?.length) {
      store.setPlan(id, phase.number, markers.plan);
      this.log(id, 'marker', `Plan for Phase ${phaseId}: ${markers.plan.length} tasks.`);
      state.idleNudges = 0;
    }
    if (markers.tasksDone.length) {
      const unknown = store.markTasks(id, phase.number, markers.tasksDone);
      this.log(id, 'marker', `Task${markers.tasksDone.length > 1 ? 's' : ''} done: ${markers.tasksDone.join(', ')}.`);
      if (unknown.length) state.pending.push(`Task ${unknown.join(', ')} is not in your plan for Phase ${phaseId}; mark the plan's task numbers.`);
      boundary = true;
      state.idleNudges = 0;
    }
    if (markers.unknownStop) state.pending.push(unknownStopCode(markers.unknownStop));
    if (markers.stop) {
      store.saveState(id, state);
      store.setStop(id, markers.stop);
      this.log(id, 'marker', `STOP ${markers.stop.code}: ${markers.stop.reason}`);
      this.changed(id);
      return;
    }
    if (markers.signOff) {
      boundary = true;
      state.idleNudges = 0;
      const advanced = await this.signOff(run, state, phase, markers.signOff, signal);
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
    if (decision === 'now') await this.compact(run, state, tokens.conversation, signal);

    store.saveState(id, state);
    this.changed(id);
  }

  private async recordContractsRead(run: BuildRun, state: RunnerState, calls: { name: string; input: Record<string, unknown> }[]): Promise<void> {
    const read = contractsRead(
      calls.map((c, i) => ({ role: 'assistant', content: [{ type: 'tool_use', id: `c${i}`, name: c.name, input: c.input }] }) as ChatMessage),
    );
    const fresh = read.filter((r) => !state.contractsRead.includes(r));
    if (!fresh.length) return;
    state.contractsRead.push(...fresh);
    // Kept where the builder can read it after a compaction (and where a restart finds it).
    await new Scratchpad(run.workDir).run('write', 'contracts_read', state.contractsRead.join(', '));
  }

  private async recordTestRuns(
    run: BuildRun,
    state: RunnerState,
    phase: { number: number },
    runs: { passed: boolean; failingTests: string[]; command: string; exitCode: number | null; output: string }[],
    signal: AbortSignal,
  ): Promise<void> {
    for (const r of runs) {
      this.deps.store.addTestRun(run.id, phase.number, { command: r.command, passed: r.passed, exitCode: r.exitCode, by: 'builder', output: r.output });
      this.log(
        run.id,
        'tests',
        `${r.command}: ${r.passed ? 'passed' : `failed${r.failingTests.length ? ` (${r.failingTests.slice(0, 5).join(', ')})` : ''}`}`,
        { isError: !r.passed },
      );
      if (r.passed) {
        state.fixAttempts = {};
        continue;
      }
      const failing = r.failingTests.length ? r.failingTests : ['(the test command)'];
      for (const t of failing) state.fixAttempts[t] = (state.fixAttempts[t] ?? 0) + 1;
      const exhausted = failing.filter((t) => (state.fixAttempts[t] ?? 0) >= MAX_FIX_ATTEMPTS);
      if (exhausted.length) {
        for (const t of exhausted) delete state.fixAttempts[t];
        state.pending.push(await this.recoveryPlan(run, phase.number, exhausted, r.output, signal));
      }
    }
  }

  private async recoveryPlan(run: BuildRun, phase: number, tests: string[], output: string, signal: AbortSignal): Promise<string> {
    const planner = this.deps.helperModel?.('planner');
    const plan = this.deps.store.detail(run.id, []).phases.find((p) => p.number === phase)?.plan ?? [];
    const known = scratchpadEntries(run.workDir).find((e) => e.key === 'known_issues')?.value;
    const request = recoveryRequest({
      test: tests.join(', '),
      attempts: MAX_FIX_ATTEMPTS,
      lastOutputs: [output],
      plan,
      phase: phaseIdOf(run.state, phase),
      knownIssues: known,
    });
    const contracts = readContracts(forgeContractsDir(run.workDir));
    const system = contracts.find((c) => c.name === 'recovery_planner_prompt')?.text.trim() || RECOVERY_PLANNER_PROMPT;
    this.log(run.id, 'gate', `${tests.join(', ')} failed ${MAX_FIX_ATTEMPTS} times: asking the recovery planner for a remediation plan.`);
    if (!planner)
      return `${tests.join(', ')} failed ${MAX_FIX_ATTEMPTS} times. Stop patching: re-read the failing output, state the root cause, then fix it or stop with a STOP code.`;
    try {
      const r = await planner.call({ role: 'planner', system, messages: [{ role: 'user', content: request }], maxTokens: 2000, signal });
      this.log(run.id, 'gate', `Recovery plan: ${r.text}`);
      return recoveryPlanMessage(r.text);
    } catch (e) {
      if (signal.aborted) throw e;
      return `${tests.join(', ')} failed ${MAX_FIX_ATTEMPTS} times (the recovery planner could not be asked: ${(e as Error).message}). Stop patching: find the root cause, or stop with a STOP code.`;
    }
  }

  private async signOff(
    run: BuildRun,
    state: RunnerState,
    phase: { number: number; name: string },
    signOff: { phase: string; deliverables: string[]; tests: string },
    signal: AbortSignal,
  ): Promise<'rejected' | 'advanced' | 'completed'> {
    const { store } = this.deps;
    const id = run.id;
    const phaseId = phaseIdOf(state, phase.number);
    this.log(id, 'marker', `Sign-off claimed for Phase ${phaseId}: Forge runs the tests and audits the phase.`);
    const after = await snapshotWorkspace(run.workDir);
    const before = state.phaseStart ?? { files: {} };
    const diff = diffSummary(before, after);
    const changes = diffWorkspace(before, after);
    const contracts = readContracts(forgeContractsDir(run.workDir));
    const plan = await this.plan(run);
    const gate = await checkSignOff({
      workDir: run.workDir,
      phase: { ...phase, id: phaseId },
      allowedCommands: this.deps.settings().allowedCommands,
      sandbox: this.sandboxFor(id, signal),
      // Forge's contracts and the spec documents this build pinned when it started (any format).
      contracts: [...contracts.map((c) => ({ name: c.name, text: c.text })), ...pinnedDocumentTexts((await this.deps.projects()).buildDocuments(id))],
      diffSummary: diff,
      phaseWindow: windowText(plan, phaseId),
      changedFiles: [...changes.added.map((a) => a.path), ...changes.modified.map((m) => m.path)],
      auditorPrompt: contracts.find((c) => c.name === 'auditor_prompt')?.text,
      auditor: this.deps.helperModel?.('review'),
      signal,
    });
    store.addTestRun(id, phase.number, {
      command: gate.tests.command,
      passed: gate.tests.passed,
      exitCode: gate.tests.exitCode,
      by: 'forge',
      output: gate.tests.output,
    });
    store.addFindings(id, phase.number, gate.findings);
    store.setSignOff(id, phase.number, { deliverables: signOff.deliverables, tests: signOff.tests, accepted: gate.accepted });
    this.log(id, 'tests', `Forge ran ${gate.tests.command}: ${gate.tests.passed ? 'passed' : 'failed'}.`, { isError: !gate.tests.passed });
    for (const f of gate.findings) this.log(id, 'audit', `${f.severity}: ${f.file ? `${f.file}: ` : ''}${f.message}`, { isError: f.severity === 'severe' });
    if (!gate.accepted) {
      state.pending.push(signOffRejected({ phase: `Phase ${phaseId}`, testsOutput: rejectionText(gate) }));
      this.log(id, 'gate', `Sign-off of Phase ${phaseId} rejected.`, { isError: true });
      return 'rejected';
    }
    store.finishPhase(id, phase.number, 'signed_off');
    const phases = store.phases(id);
    const next = phases.find((p) => p.number > phase.number && p.status !== 'signed_off');
    if (!next) {
      store.setStatus(id, 'completed');
      this.log(id, 'status', `Phase ${phaseId} signed off — every phase is done.`);
      this.changed(id);
      return 'completed';
    }
    const nextId = phaseIdOf(state, next.number);
    store.setCurrentPhase(id, next.number);
    store.startPhase(id, next.number);
    state.phaseStart = after;
    state.fixAttempts = {};
    // The gate closes at every phase start: the next phase's window must be read in that phase.
    state.windowRead = run.mode === 'dump' ? nextId : null;
    state.pending.push(
      phaseAdvanceMessage({
        nextPhase: nextId,
        nextPhaseName: next.name,
        diffSummary: diff,
        listing: await workspaceListing(run.workDir),
        // Dump mode has no phase-window tool: the old flow put the next window in the message.
        ...(run.mode === 'dump' ? { phaseWindow: windowText(plan, nextId) } : {}),
      }),
    );
    this.log(id, 'status', `Phase ${phaseId} signed off; Phase ${nextId} — ${next.name} begins.`);
    return 'advanced';
  }

  private async compact(run: BuildRun, state: RunnerState, before: number, signal: AbortSignal): Promise<void> {
    const { store } = this.deps;
    const helper = this.deps.helperModel?.('compact');
    const messages = store.messages(run.id);
    const compacted = await compactConversation(messages, {
      keepLast: 4,
      summarize: async (transcript) => {
        if (!helper) return transcript.slice(0, 6000);
        try {
          const r = await helper.call({
            role: 'compact',
            system: COMPACTION_PROMPT,
            messages: [{ role: 'user', content: transcript }],
            maxTokens: 2000,
            signal,
          });
          return r.text;
        } catch (e) {
          if (signal.aborted) throw e;
          // Without the summariser the middle is kept as its own compact transcript (long, but nothing invented).
          return transcriptForSummary(messages.slice(1, -4)).slice(0, 8000);
        }
      },
    });
    if (compacted.removedCount === 0) return;
    const system = systemFor(run.projectName, run.mode);
    const after = countBuilderContext({
      system,
      tools: toolsFor(run.mode).map((t) => toModelTool(t as ToolDefinition)),
      messages: compacted.messages,
    }).conversation;
    store.replaceMessages(run.id, compacted.messages, { turn: state.turns, beforeTokens: before, afterTokens: after });
    state.compactionPending = false;
    if (compacted.contractsRead.length) {
      state.contractsRead = [...new Set([...state.contractsRead, ...compacted.contractsRead])];
      await new Scratchpad(run.workDir).run('write', 'contracts_read', state.contractsRead.join(', '));
    }
    this.log(run.id, 'compaction', `Compacted ${compacted.removedCount} messages: ${before} → ${after} conversation tokens.`);
  }

  /** The plan the build follows: the planner project's plan text, or the working directory's spec package. */
  private async plan(run: BuildRun): Promise<SpecPackage | string> {
    if (run.projectId) {
      try {
        return (await (await this.deps.projects()).getProjectContract(run.projectId, 'phases')).content;
      } catch {
        return '';
      }
    }
    try {
      return runPackage(run);
    } catch {
      return '';
    }
  }

  // --- plumbing ---------------------------------------------------------------------------

  private log(id: string, kind: BuildLogEntry['kind'], text: string, extra: { tool?: string; isError?: boolean } = {}): void {
    const entry = this.deps.store.log(id, { kind, text, ...extra });
    this.deps.onLog?.(id, entry);
  }

  private changed(id: string): BuildSummary {
    const s = this.deps.store.summary(id);
    this.deps.onChanged?.(s);
    return s;
  }
}

type BuilderTool = ToolDefinition<z.ZodType, ProjectToolContext & ForgeToolHost & WindowGateHost>;

const toolSets = new Map<BuildMode, BuilderTool[]>();
/** The builder's tools: 8 project tools + the forge tools of its mode (declared once, built once). */
export function toolsFor(mode: BuildMode): BuilderTool[] {
  let t = toolSets.get(mode);
  if (!t) {
    t = withWindowGate([...(PROJECT_TOOLS as unknown as BuilderTool[]), ...(forgeTools(mode) as unknown as BuilderTool[])]);
    toolSets.set(mode, t);
  }
  return t;
}

export function systemFor(projectName: string, mode: BuildMode): SystemBlock[] {
  return [{ text: builderSystemPrompt(projectName, { mode }), stable: true }];
}

/** System prompt + tool definitions: what every turn carries before the conversation. */
export function fixedTokens(system: SystemBlock[], tools: BuilderTool[]): number {
  const c = countBuilderContext({ system, tools: tools.map((t) => toModelTool(t as ToolDefinition)), messages: [] });
  return c.system + c.tools;
}

/** The spec package a build works from: its working directory, read with the feature it started with. */
function runPackage(run: BuildRun): SpecPackage {
  return run.state.feature ? readBuildPackage(run.workDir, run.state.feature) : readSpecPackage(run.workDir);
}

function forgeContractsDir(workDir: string): string {
  return join(workDir, 'Forge', 'Contracts');
}

function forgeContext(run: BuildRun, deps: BuilderDeps, sources: Map<string, LocalSource>) {
  let source = sources.get(run.workDir);
  if (!source) {
    source = new LocalSource({ dir: forgeContractsDir(run.workDir), watch: false });
    sources.set(run.workDir, source);
  }
  const session = new McpSession();
  // A plan handed over from the planner: phase windows come from that project's plan.
  if (run.projectId) session.set({ project_id: run.projectId, build_id: run.id });
  // Otherwise the registry tools describe the working directory's own spec package (read once per turn).
  let pkg: SpecPackage | undefined;
  const specPackage = run.projectId ? undefined : () => (pkg ??= runPackage(run));
  return {
    ...(specPackage ? { specPackage } : {}),
    source,
    projects: lazyProjects(deps),
    artifacts: deps.artifacts,
    session,
    scratchpad: new Scratchpad(run.workDir),
    transport: 'builder',
  };
}

function lazyProjects(deps: BuilderDeps) {
  return {
    getProjectContext: async (projectId: string) => (await deps.projects()).getProjectContext(projectId),
    getProjectContract: async (projectId: string, type: Parameters<ProjectStore['getProjectContract']>[1]) =>
      (await deps.projects()).getProjectContract(projectId, type),
    getBuildContracts: async (buildId: string) => (await deps.projects()).getBuildContracts(buildId),
  };
}

/** The scratchpad as the Builds screen shows it (read without the lock: a display, never a write). */
function scratchpadEntries(workDir: string): { key: string; value: string }[] {
  try {
    const raw = JSON.parse(readFileSync(join(workDir, SCRATCHPAD_FILE), 'utf8')) as Record<string, unknown>;
    return Object.entries(raw)
      .filter(([, v]) => typeof v === 'string')
      .map(([key, value]) => ({ key, value: value as string }));
  } catch {
    return [];
  }
}

function rejectionText(gate: { tests: { passed: boolean; output: string }; findings: { severity: string; file: string | null; message: string }[] }): string {
  const severe = gate.findings.filter((f) => f.severity === 'severe');
  const lines = severe.map((f) => `- ${f.file ? `${f.file}: ` : ''}${f.message}`);
  return [gate.tests.passed ? 'The tests pass, but the audit found problems that block this phase:' : gate.tests.output.slice(-3000), ...lines].join('\n');
}

/** One phase's window as text (empty when the phases cannot be read: the auditor then works from the diff). */
function windowText(plan: SpecPackage | string, phaseId: string): string {
  try {
    return typeof plan === 'string' ? phaseWindow(plan, Number(phaseId)).content : packageWindow(plan, phaseId).content;
  } catch {
    return '';
  }
}

/** The plan's own id of a stored phase (builds begun before ids were kept use the stored number). */
function phaseIdOf(state: RunnerState, number: number): string {
  return state.phaseIds?.[String(number)] ?? String(number);
}

/**
 * Dump mode's first message: every document the package holds, the plan included — what a dump
 * really costs is what the dump-versus-fetch comparison measures (the bench sends the same).
 */
function dumpOf(pkg: SpecPackage): { name: string; file?: string; text: string }[] {
  return pkg.documents.map((d) => ({ name: d.id, text: d.text }));
}

const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
