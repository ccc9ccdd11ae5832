import type { BuildDetail, BuildLogEntry, BuildMode, BuildSummary } from '../api/builds';
import { AppError, ConflictError } from '../common/errors';
import type { LocalSource } from '../mcp';
import { CancelledError } from '../tools/loop';
import type { BuildHost, BuilderDeps } from './build-host';
import { dumpOf, fixedTokens, scratchpadEntries, systemFor, toolsFor, windowText } from './build-context';
import { CommandConsent } from './command-consent';
import { firstMessage, stopAnswered } from './messages';
import { projectBrief } from './project-brief';
import { packageLead, pinBuild, readBuildPlan } from './prepare';
import { runTurn } from './turn';
import { type CommandSandbox, snapshotWorkspace, workspaceListing } from './workspace';

/**
 * The builder's state machine on the analyst's agent loop. One model turn at a time: stream it,
 * run its tool calls, save the conversation, then read the markers it wrote — a plan, tasks done,
 * a sign-off (checked by running the tests and auditing), a STOP code (the build waits for the
 * user). Every write and command first passes the window gate (phase-gate.ts); between turns it
 * applies the fix-attempt limit and compaction.
 * Everything is saved after every turn, so a build resumes after a restart where it stopped.
 *
 * This file is the lifecycle: start, pause, resume, stop, answer, and the drive that calls one
 * turn after another. One turn lives in turn.ts, the sign-off in sign-off.ts, compaction of a run in
 * compact-run.ts, the fix-attempt limit in fix-attempts.ts; they reach the manager through BuildHost.
 */

interface Live {
  controller: AbortController;
  done: Promise<void>;
}

export class BuildManager {
  private readonly live = new Map<string, Live>();
  /** Contract readers per working directory (each caches parsed contracts, checked against file times). */
  private readonly sources = new Map<string, LocalSource>();
  private readonly consent: CommandConsent;
  /** What turn.ts, sign-off.ts and compact-run.ts need from this manager. */
  private readonly host: BuildHost;
  private closed = false;

  constructor(private readonly deps: BuilderDeps) {
    this.host = {
      deps,
      sources: this.sources,
      log: (id, kind, text, extra) => this.log(id, kind, text, extra),
      changed: (id) => this.changed(id),
      sandboxFor: (id, signal) => this.sandboxFor(id, signal),
    };
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
      await runTurn(this.host, run, signal);
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
