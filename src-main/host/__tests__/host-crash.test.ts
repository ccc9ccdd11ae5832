import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvSecretStore } from '../../config/secrets';
import { startMockAnthropicServer, type MockAnthropicServer } from '../../llm/testing';
import { createCore, type Core } from '../core';
import { removeDir } from './tasks-harness';

/**
 * SIGKILL of a whole core in the middle of everything at once: an analyst run whose sub-agents are
 * working, a build, a scheduled morning review, and memory writes. On restart the database must pass
 * integrity_check, every write the child saw acknowledged must be there exactly once, and the
 * interrupted task, build and scheduled run must say so and be retryable — nothing silently lost,
 * nothing duplicated.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'forge-host-crash-'));
const projectDir = mkdtempSync(join(tmpdir(), 'forge-host-crash-project-'));
let mock: MockAnthropicServer;
let acked: string[] = [];

function writeProject() {
  const files: Record<string, string> = {
    'Forge/Contracts/blueprint.md': '# Tally\n\nAdds numbers.\n',
    'Forge/Contracts/stack.md': '# Stack\n\nNode, node:test.\n',
    'Forge/Contracts/phases.md': '# Phases\n\n## Phase 0 — Adder\n\nAn add helper with a test.\n\n## Phase 1 — Counter\n\nA counter with a test.\n',
    'package.json': '{"name":"tally","private":true,"type":"module","scripts":{"test":"node --test"}}\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(projectDir, path)), { recursive: true });
    writeFileSync(join(projectDir, path), text);
  }
}

beforeAll(async () => {
  writeProject();
  let dispatched = false;
  mock = await startMockAnthropicServer({
    responder: (req) => {
      const text = JSON.stringify(req.body.messages ?? '');
      // The analyst's first turn dispatches two sub-agents; everything else (sub-agents, the builder,
      // the morning review) is a model that takes ten minutes: all of it is still running at the kill.
      if (!dispatched && text.includes('Morning check: dispatch the context tasks.')) {
        dispatched = true;
        return {
          toolCalls: [
            { name: 'dispatch', input: { id: 'rates_ctx', skill: 'context-retrieval', objective: 'Gather the rates evidence for V-001.' } },
            { name: 'dispatch', input: { id: 'fx_ctx', skill: 'context-retrieval', objective: 'Gather the FX evidence for V-003.' } },
          ],
        };
      }
      return { delayMs: 600_000, text: 'late' };
    },
  });
});

afterAll(async () => {
  await mock?.close();
  removeDir(dataDir);
  removeDir(projectDir);
});

/** Runs the child until all the work is under way, then kills it with SIGKILL (no cleanup runs). */
function crashChild(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./host-crash-child.ts', import.meta.url)), dataDir, mock.url, projectDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    env: { ...process.env, FORGE_SCHEDULER: '' },
  });
  let err = '';
  let out = '';
  child.stderr.on('data', (d) => (err += String(d)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child never had everything running:\n${out.slice(-500)}\n${err.slice(-2000)}`));
    }, 60_000);
    child.stdout.on('data', (d) => {
      out += String(d);
      if (!out.includes('READY')) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      child.on('exit', () => {
        acked = [...out.matchAll(/^ACK (V-\d+)$/gm)].map((m) => m[1]!);
        resolve();
      });
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!out.includes('READY')) {
        clearTimeout(timer);
        reject(new Error(`the child exited (${code}) before everything ran:\n${err.slice(-2000)}`));
      }
    });
  });
}

describe('SIGKILL with an analyst run, sub-agents, a build and a scheduled job in flight', () => {
  let core: Core;

  it('restarts on an intact database with every acknowledged write present exactly once', { timeout: 120_000 }, async () => {
    await crashChild();
    expect(acked).toHaveLength(50);
    const db = new Database(join(dataDir, 'forge.db'));
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
    // As the app and `forge serve` start: with the scheduler, which marks runs a dead process left behind.
    core = createCore({ dataDir, mode: 'test', scheduler: true, secrets: new EnvSecretStore({ ANTHROPIC_API_KEY: 'sk-test-crash' }) });
    await core.context.memory.ready;
    const fs = core.context.memory.fs;
    for (const id of acked) expect(fs.exists(`/memory/views/${id}.md`), id).toBe(true);
    // Exactly once: the crash-test Views on disk are the acknowledged ones, no more.
    const crashViews = fs.listDir('/memory/views/', '"Crash-test view"', { limit: 1000 }).entries.map((e) => e.id);
    expect(new Set(crashViews).size).toBe(crashViews.length);
    expect([...crashViews].sort()).toEqual([...acked].sort());
  });

  it('shows the sub-agent tasks, the build and the scheduled run as interrupted, and each can be retried', { timeout: 60_000 }, async () => {
    const tasks = await core.invoke('tasks/list', {});
    expect(tasks.ok).toBe(true);
    if (!tasks.ok) return;
    const subagents = tasks.value.tasks.filter((t) => t.id === 'rates_ctx' || t.id === 'fx_ctx');
    expect(subagents.length).toBe(2);
    for (const t of subagents) expect([t.status, t.failure]).toEqual(['failed', 'interrupted']);

    const builds = await core.invoke('builds/list', {});
    expect(builds.ok && builds.value.builds.map((b) => b.status)).toEqual(['interrupted']);

    let runs = await core.invoke('schedule/history', { job: 'morning_review' });
    // The scheduler starts just after the database opens; give it a moment to record the interruption.
    for (let i = 0; i < 50 && runs.ok && runs.value.runs.some((r) => r.status === 'running' && r.trigger === 'manual'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      runs = await core.invoke('schedule/history', { job: 'morning_review' });
    }
    expect(runs.ok).toBe(true);
    if (!runs.ok) return;
    // The Run now the child started is recorded as interrupted (a catch-up the restart starts may be running).
    expect(runs.value.runs.filter((r) => r.trigger === 'manual').map((r) => r.status)).toEqual(['interrupted']);

    // Retry: the task, and the build (Resume continues from its last saved turn).
    const retried = await core.invoke('tasks/retry', { sessionId: subagents[0]!.sessionId, id: subagents[0]!.id });
    expect(retried.ok, JSON.stringify(retried)).toBe(true);
    if (builds.ok) {
      const resumed = await core.invoke('builds/resume', { id: builds.value.builds[0]!.id });
      expect(resumed.ok, JSON.stringify(resumed)).toBe(true);
    }
    await core.close();
  });
});
