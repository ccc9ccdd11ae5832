import { createInterface } from 'node:readline/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BuildLogEntry, BuildSummary, CommandConsentRequest } from '../api/builds';
import { resolveDataDir } from '../config/paths';

export const BUILD_USAGE = `Usage: forge build <project folder> [options]
       forge build --resume <build id> [--answer TEXT]

Builds the project in the folder phase by phase, its specs read as they are (Forge/Contracts/,
spec-kit, Kiro, OpenSpec, or Markdown with a PLAN.md/ROADMAP.md/phases.md), progress on the terminal. Needs an Anthropic API key (Settings, or ANTHROPIC_API_KEY).

  --data DIR      workspace folder (default: $FORGE_HOME or ~/.forge)
  --model ID      model id (default: the builder role's model in Settings)
  --mode M        mcp (contracts fetched on demand, default) or dump (every contract up front)
  --mini          only the first two phases
  --project ID    build from the planner's plan for this project
  --resume ID     continue a paused, failed or interrupted build (or answer its STOP with --answer)
  --answer TEXT   the answer to the STOP code the build is waiting on
  --dry-run       only read the folder's specs (Forge, spec-kit, Kiro, OpenSpec or a plain plan) and
                  print the format found, documents, phases with task counts and what was not
                  understood; no model is called
  --feature NAME  the spec-kit/Kiro feature or OpenSpec change to read or build (default: the newest)

Ctrl-C pauses the build (resume it later with --resume).`;

const TERMINAL: BuildSummary['status'][] = ['completed', 'stopped', 'failed', 'waiting_answer', 'paused', 'interrupted'];

/** `forge build`: a build run headless, its log printed as it happens. Exit 0 when every phase signed off. */
export async function forgeBuildCli(args: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (e) {
    console.error(`forge build: ${(e as Error).message}\n\n${BUILD_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(BUILD_USAGE);
    return 0;
  }
  if (values['dry-run']) return dryRun(positionals, values.feature);
  if (!values.resume && positionals.length !== 1) {
    console.error(`forge build: give one project folder (or --resume <build id>).\n\n${BUILD_USAGE}`);
    return 2;
  }
  if (values.mode && values.mode !== 'mcp' && values.mode !== 'dump') {
    console.error('forge build: --mode is mcp or dump.');
    return 2;
  }
  const { createCore } = await import('./core');
  const core = createCore({ dataDir: resolveDataDir(values.data), mode: 'headless', scheduler: false });
  let id: string | undefined;
  const off = core.context.events.subscribe((m) => {
    if (m.event === 'builds/log') {
      const p = m.payload as { buildId: string; entry: BuildLogEntry };
      if (!id || p.buildId === id) console.log(formatLine(p.entry));
    }
    // No sandbox on this machine: the command waits for the PM's y/N here, as it would on the Builds screen.
    if (m.event === 'builds/command-consent') {
      const p = m.payload as { buildId: string; request: CommandConsentRequest };
      if (!id || p.buildId === id) {
        void (async () => {
          const rl = createInterface({ input: process.stdin, output: process.stdout });
          const a = (
            await rl.question(`\n${p.request.notice}\n$ ${p.request.commandLine}\nAllow ${p.request.commandClass} commands for this build? [y/N] `)
          ).trim();
          rl.close();
          await core.invoke('builds/decide-command', { id: p.buildId, requestId: p.request.requestId, allow: /^y(es)?$/i.test(a) });
        })();
      }
    }
  });
  let interrupted = false;
  const onSigint = () => {
    if (interrupted || !id) process.exit(130);
    interrupted = true;
    console.log('\nPausing the build (Ctrl-C again to quit at once)…');
    void core.invoke('builds/pause', { id });
  };
  process.on('SIGINT', onSigint);
  try {
    let started: { ok: true; value: { build: BuildSummary } } | { ok: false; error: { message: string } };
    if (values.resume) {
      id = values.resume;
      started = values.answer ? await core.invoke('builds/answer', { id, answer: values.answer }) : await core.invoke('builds/resume', { id });
    } else {
      started = await core.invoke('builds/start', {
        workDir: resolve(positionals[0]!),
        ...(values.model ? { model: values.model } : {}),
        ...(values.mode ? { mode: values.mode as 'mcp' | 'dump' } : {}),
        ...(values.mini ? { mini: true } : {}),
        ...(values.project ? { projectId: values.project } : {}),
        ...(values.feature ? { feature: values.feature } : {}),
      });
    }
    if (!started.ok) {
      console.error(`forge build: ${started.error.message}`);
      return 1;
    }
    id = started.value.build.id;
    console.log(`Build ${id}: ${started.value.build.projectName}, ${started.value.build.totalPhases} phases.`);
    for (;;) {
      const summary = await waitForStop(core, id);
      if (summary.status === 'waiting_answer' && process.stdin.isTTY && !interrupted) {
        const detail = await core.invoke('builds/get', { id });
        const stop = detail.ok ? detail.value.stop : null;
        const rl = createInterface({ input: process.stdin, output: process.stdout });
        const answer = (await rl.question(`\nThe builder stopped: ${stop?.code}\n${stop?.reason}\nYour answer (empty to leave it waiting): `)).trim();
        rl.close();
        if (answer) {
          const r = await core.invoke('builds/answer', { id, answer });
          if (r.ok) continue;
          console.error(`forge build: ${r.error.message}`);
        }
      }
      return report(summary);
    }
  } finally {
    process.off('SIGINT', onSigint);
    off();
    await core.close();
  }
}

/** `forge build --dry-run <dir>`: what Forge reads in the folder, without a workspace or a model. */
async function dryRun(positionals: string[], feature: string | undefined): Promise<number> {
  if (positionals.length !== 1) {
    console.error(`forge build: --dry-run takes one project folder.\n\n${BUILD_USAGE}`);
    return 2;
  }
  const { describeSpecPackage, readSpecPackage } = await import('../specs');
  try {
    console.log(describeSpecPackage(readSpecPackage(positionals[0]!, feature ? { feature } : {})));
    return 0;
  } catch (e) {
    console.error(`forge build: ${(e as Error).message}`);
    return 1;
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      data: { type: 'string' },
      model: { type: 'string' },
      mode: { type: 'string' },
      mini: { type: 'boolean' },
      project: { type: 'string' },
      resume: { type: 'string' },
      answer: { type: 'string' },
      'dry-run': { type: 'boolean' },
      feature: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function waitForStop(
  core: {
    invoke: (n: 'builds/list', i: object) => Promise<unknown>;
    context: { events: { subscribe: (f: (m: { event: string; payload: unknown }) => void) => () => void } };
  },
  id: string,
): Promise<BuildSummary> {
  return new Promise((resolveStop) => {
    const check = async () => {
      const r = (await core.invoke('builds/list', {})) as { ok: boolean; value?: { builds: BuildSummary[] } };
      const s = r.value?.builds.find((b) => b.id === id);
      if (s && TERMINAL.includes(s.status)) {
        off();
        clearInterval(timer);
        resolveStop(s);
      }
    };
    const off = core.context.events.subscribe((m) => {
      if (m.event === 'builds/changed' && (m.payload as BuildSummary).id === id) void check();
    });
    // Also polled: a status set between the start call and the subscription is never missed.
    const timer = setInterval(() => void check(), 2000);
    void check();
  });
}

function report(s: BuildSummary): number {
  const tokens = `${s.inputTokens.toLocaleString()} in / ${s.outputTokens.toLocaleString()} out${s.costUsd !== null ? `, $${s.costUsd.toFixed(2)}` : ''}`;
  switch (s.status) {
    case 'completed':
      console.log(`\nBuild ${s.id} completed: ${s.totalPhases} phases signed off (${tokens}).`);
      return 0;
    case 'waiting_answer':
      console.log(`\nBuild ${s.id} waits for your answer. Answer with: forge build --resume ${s.id} --answer "…"`);
      return 3;
    case 'paused':
    case 'interrupted':
      console.log(`\nBuild ${s.id} paused at Phase ${s.currentPhase}. Continue with: forge build --resume ${s.id}`);
      return 130;
    default:
      console.error(`\nBuild ${s.id} ${s.status}: ${s.error ?? ''} (${tokens})`);
      return 1;
  }
}

function formatLine(e: BuildLogEntry): string {
  const time = e.at.slice(11, 19);
  const text = e.text.length > 400 ? `${e.text.slice(0, 400)}…` : e.text;
  const tag = e.kind === 'tool_call' ? '→' : e.kind === 'tool_result' ? (e.isError ? '✗' : '←') : e.kind.toUpperCase();
  return `${time} ${tag} ${text.replace(/\n/g, '\n         ')}`;
}
