import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventMessage } from '../api/events';
import { EnvSecretStore } from '../config/secrets';
import { createCore, type Core } from './core';

/** A core on a fresh temp data folder, for tests and benchmarks; `dispose` removes everything. */
export function tempCore(env: Record<string, string | undefined> = {}): { core: Core; dataDir: string; dispose(): Promise<void> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'forge-test-'));
  const core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore(env) });
  return {
    core,
    dataDir,
    async dispose() {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits for the first event (already seen in `seen`, or arriving later) that matches `pred`; fails
 * after `ms` naming what it waited for. For tests that drive a run and wait for its end.
 */
export function untilEvent(core: Core, seen: readonly EventMessage[], pred: (m: EventMessage) => boolean, ms = 20_000): Promise<EventMessage> {
  return new Promise((resolve, reject) => {
    const hit = seen.find(pred);
    if (hit) return resolve(hit);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching event in ${ms} ms`));
    }, ms);
    const off = core.context.events.subscribe((m) => {
      if (pred(m)) {
        clearTimeout(timer);
        off();
        resolve(m);
      }
    });
  });
}

/**
 * A data folder holding the sample workspace with V-001 edited to version 2 (its first version
 * archived), and the audit rows those writes leave: what the desk tests move to PostgreSQL and back.
 */
export async function seedSampleWithEditedView(dataDir: string): Promise<void> {
  const core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
  try {
    await core.context.memory.ready;
    const fs = core.context.memory.fs;
    const v1 = fs.readFile('/memory/views/V-001.md');
    await fs.writeFile('/memory/views/V-001.md', v1.replace('confidence: 0.7', 'confidence: 0.55'), { actor: 'pm' });
  } finally {
    await core.close();
  }
}
