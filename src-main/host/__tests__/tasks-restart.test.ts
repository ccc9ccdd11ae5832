import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../tools/loop';
import { TaskExecutor } from '../../executor';
import { ScriptedSubAgents } from '../../executor/testing';
import { openWorkspace } from '../../fs';
import { SkillLoader } from '../../skills';
import { answer, REPO_SKILLS, removeDir } from './tasks-harness';

const dataDir = mkdtempSync(join(tmpdir(), 'forge-restart-'));
afterAll(() => removeDir(dataDir));

/** Runs the child until it has tasks in flight, then kills it (SIGKILL: no cleanup runs). */
function crashChild(): Promise<void> {
  // Node itself with tsx's loader (not the tsx CLI, which would leave its node child running when killed).
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./tasks-crash-child.ts', import.meta.url)), dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
  });
  let err = '';
  child.stderr.on('data', (d) => (err += String(d)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child never became ready: ${err}`));
    }, 20_000);
    child.stdout.on('data', (d) => {
      if (!String(d).includes('READY')) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      child.on('exit', () => resolve());
    });
    child.on('error', reject);
  });
}

describe('restart with tasks in flight', () => {
  it('shows tasks left running by a crash as failed (interrupted) — never lost — and lets the PM retry them', async () => {
    await crashChild();
    const ws = openWorkspace({ dataDir, bundledSkillsDir: null, seedDir: null });
    const skills = new SkillLoader(REPO_SKILLS);
    const executor = new TaskExecutor({
      db: ws.store.db,
      files: ws.fs,
      skills,
      model: new ScriptedSubAgents({ 'subagent:A': answer('A finished this time.') }),
      runLoop: runAgent,
      toolsFor: () => ({ tools: [], context: {} }),
    });
    try {
      expect(executor.interruptedOnStart).toBe(3);
      const tasks = executor.list({ sessionId: 'sess_crash' });
      expect(tasks.map((t) => [t.id, t.status, t.failure]).sort()).toEqual([
        ['A', 'failed', 'interrupted'],
        ['B', 'failed', 'interrupted'],
        ['C', 'failed', 'interrupted'],
      ]);
      expect(executor.find('sess_crash', 'A')!.error).toBe('Interrupted: Forge stopped while this task was running. Retry it to run it again.');
      expect(executor.find('sess_crash', 'B')!.error).toContain('while this task was waiting');
      expect(executor.find('sess_crash', 'C')!.error).toContain('while this task was queued');
      expect(executor.events('sess_crash', 'A').map((e) => e.kind)).toEqual(['dispatched', 'started', 'skill_loaded', 'interrupted']);

      const retry = executor.retryTask('sess_crash', 'A');
      expect(retry.id).toBe('A-r1');
      expect((await executor.waitFor('sess_crash', 'A-r1')).summary).toBe('A finished this time.');
    } finally {
      await executor.close();
      skills.close();
      ws.close();
    }
  });
});
