import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
