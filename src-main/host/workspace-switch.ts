import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { fail, ok, type Envelope } from '../api/envelope';
import { isProcedureName, procedures, type ProcedureName, type ProcedureOutput } from '../api/procedures';
import { bundledDemoDir, DEMO_MESSAGE, type DemoSpeed } from '../agent';
import { AppError, isAppError } from '../common/errors';
import type { SecretStore } from '../config/secrets';
import type { CoreConfig } from './config';
import type { CoreContext } from './context';
import { type CallContext, createCore, type Core } from './core';
import { EventBus } from './events';
import { demoHandlers, type DemoControl } from './handlers/demo';

/** The demo workspace holds no keys: nothing in it may reach Claude, an embedder API or a paid data feed. */
const noSecrets: SecretStore = {
  description: 'The demo workspace keeps no secrets.',
  get: () => undefined,
  set: () => {
    throw new AppError('forbidden', 'The demo workspace keeps no keys; go back to your workspace to change them.');
  },
};

export interface WorkspaceSwitchOptions {
  /** The PM's own workspace. The switch owns it from now on (closes it on close). */
  real: Core;
  /** Builds the demo workspace's core (default createCore); tests pass one with a slower pace. */
  createDemoCore?: (config: CoreConfig) => Core;
  /** The demo material (scenario.json, subagents.json, data/); default: the bundled resources/demo. */
  demoDir?: string;
  /** Where demo workspaces are made (default: the OS temp folder). */
  tmpRoot?: string;
  nativeBinding?: string;
  /** The shell's launcher for `.mjs` skill scripts, handed to the demo's core as to the PM's (see CoreConfig). */
  nodeLauncher?: CoreConfig['nodeLauncher'];
}

export interface WorkspaceSwitch extends Core, DemoControl {
  /** The core every screen reads now: the PM's, or the demo's while in demo. */
  active(): Core;
}

interface DemoState {
  core: Core;
  dataDir: string;
  speed: DemoSpeed;
  runId: string;
  sessionId: string;
  off: () => void;
  /** Deletes the folder if the process ends without closing the switch (a crash, a hard quit). */
  removeAtExit: () => void;
}

/**
 * The app's one core as the transports see it: it routes every call to the active workspace, the
 * PM's own or a demo workspace (a fresh copy of the sample workspace in a temp folder, driven by the
 * scripted demo model). Only the active workspace's events reach subscribers, and switching emits
 * app/workspace-changed so every screen refetches. Two cores live side by side: the core has no
 * module state, so the demo can never touch the PM's memory.
 */
export function createWorkspaceSwitch(options: WorkspaceSwitchOptions): WorkspaceSwitch {
  const { real } = options;
  const makeDemoCore = options.createDemoCore ?? createCore;
  const bus = new EventBus();
  let demo: DemoState | null = null;
  // Enter and exit run one at a time, so a double click never leaves two demo workspaces behind.
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;
  const serially = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };

  const offReal = real.context.events.subscribe((m) => {
    if (!demo) bus.emit(m.event, m.payload as never);
  });
  // Transports subscribe to this bus; the rest of the context is the PM's workspace (app/info, the MCP server).
  const context: CoreContext = { ...real.context, events: bus };

  async function leaveDemo(): Promise<boolean> {
    const d = demo;
    if (!d) return false;
    demo = null;
    d.off();
    process.off('exit', d.removeAtExit);
    bus.emit('app/workspace-changed', { demo: false });
    // Closing the demo core stops its run and sub-agents (recorded as interrupted) before its database closes.
    await d.core.close();
    rmSync(d.dataDir, { recursive: true, force: true });
    return true;
  }

  const control: DemoControl = {
    enter: (speed = 'normal') =>
      serially(async () => {
        if (closed) throw new AppError('unavailable', 'Forge is shutting down.');
        // A second Demo click starts over: the scripted run cannot be replayed in a used workspace.
        await leaveDemo();
        const demoDir = options.demoDir ?? bundledDemoDir();
        const dataDir = mkdtempSync(join(options.tmpRoot ?? tmpdir(), 'forge-demo-'));
        let core: Core;
        try {
          core = makeDemoCore({
            dataDir,
            mode: real.context.mode,
            scheduler: false,
            secrets: noSecrets,
            nativeBinding: options.nativeBinding,
            nodeLauncher: options.nodeLauncher,
            demo: { demoDir, speed },
          });
        } catch (e) {
          rmSync(dataDir, { recursive: true, force: true });
          throw e;
        }
        const removeAtExit = () => {
          try {
            rmSync(dataDir, { recursive: true, force: true });
          } catch {
            // Exiting anyway; the OS temp folder is cleaned eventually.
          }
        };
        process.once('exit', removeAtExit);
        const state: DemoState = { core, dataDir, speed, runId: '', sessionId: '', off: () => {}, removeAtExit };
        state.off = core.context.events.subscribe((m) => {
          if (demo === state) bus.emit(m.event, m.payload as never);
        });
        try {
          await core.context.memory.ready;
        } catch (e) {
          state.off();
          process.off('exit', removeAtExit);
          await core.close();
          rmSync(dataDir, { recursive: true, force: true });
          throw e;
        }
        demo = state;
        bus.emit('app/workspace-changed', { demo: true });
        const started = await core.invoke('agent/send', { message: DEMO_MESSAGE });
        if (!started.ok) {
          await leaveDemo();
          throw new AppError(started.error.code, `The demo could not start: ${started.error.message}`);
        }
        state.runId = started.value.runId;
        state.sessionId = started.value.sessionId;
        return { runId: state.runId, sessionId: state.sessionId, turn: started.value.turn, demo: true as const, dataDir, speed };
      }),
    exit: () => serially(async () => ({ demo: false as const, removed: await leaveDemo() })),
    status: async () => {
      if (!demo) return { demo: false };
      const status = await demo.core.invoke('agent/status', {});
      const running = status.ok && status.value.running.some((r) => r.runId === demo?.runId);
      return {
        demo: true,
        dataDir: demo.dataDir,
        speed: demo.speed,
        ...(running ? { runId: demo.runId, sessionId: demo.sessionId } : {}),
      };
    },
  };
  const own = demoHandlers(control);

  async function invokeUnknown(name: string, input: unknown, call?: CallContext): Promise<Envelope<unknown>> {
    if (closed) return fail('unavailable', 'Forge is shutting down.');
    const handler = isProcedureName(name) ? (own[name] as ((i: unknown, ctx: CoreContext) => unknown) | undefined) : undefined;
    if (!handler) return (demo?.core ?? real).invokeUnknown(name, input, call);
    const parsed = procedures[name as ProcedureName].input.safeParse(input ?? {});
    if (!parsed.success) return fail('invalid_input', `Invalid input for ${name}: ${z.prettifyError(parsed.error)}`);
    try {
      return ok(await handler(parsed.data, context));
    } catch (e) {
      if (isAppError(e)) return { ok: false, error: { code: e.code, message: e.message } };
      return fail('internal', `${name} failed unexpectedly: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  return {
    context,
    ...control,
    active: () => demo?.core ?? real,
    invoke: <N extends ProcedureName>(name: N, input: unknown, call?: CallContext) => invokeUnknown(name, input, call) as Promise<Envelope<ProcedureOutput<N>>>,
    invokeUnknown,
    async close() {
      if (closed) return;
      // The temp folder goes with the process: a demo left open at quit is removed here.
      await serially(() => leaveDemo()).catch(() => undefined);
      closed = true;
      offReal();
      await real.close();
    },
  };
}
