import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBundledDir, openWorkspace, type Workspace } from '../fs';
import { defaultGuardrailLimits } from '../guardrails';
import type { Model } from '../llm';
import { buildProviderRegistry, type ProviderRegistry } from '../providers';
import { HashNgramEmbedder, SearchIndex } from '../search';
import type { Settings } from '../api/procedures';
import type { AnalystToolContext } from './context';

/** A real seeded workspace in a temp folder, with a search index and the app's providers (demo CSV data as `datasets`, the sample market set, `economic` without a key). */
export interface TestWorkspace {
  dir: string;
  ws: Workspace;
  index: SearchIndex;
  providers: ProviderRegistry;
  context(options?: {
    sessionId?: string;
    actor?: AnalystToolContext['writer']['actor'];
    model?: Model;
    signal?: AbortSignal;
    asOf?: string;
  }): AnalystToolContext;
  close(): void;
}

export async function openTestWorkspace(
  options: { seed?: boolean; dataDir?: string; secrets?: Record<string, string>; providerSettings?: () => Settings['providers'] } = {},
): Promise<TestWorkspace> {
  const dir = mkdtempSync(join(tmpdir(), 'forge-tools-'));
  let index!: SearchIndex;
  const ws = openWorkspace({
    dataDir: dir,
    bundledSkillsDir: null,
    seedDir: options.seed === false ? null : findBundledDir(join('resources', 'seed')),
    indexer: (store) => (index = new SearchIndex(store.db, new HashNgramEmbedder())),
  });
  await ws.ready;
  const providers = buildProviderRegistry({
    db: ws.fs.store.db,
    secret: (name) => options.secrets?.[name],
    settings: options.providerSettings ?? (() => undefined),
    csvDir: options.dataDir ?? findBundledDir(join('resources', 'demo', 'data')),
    // The app's full set of providers (research over an empty notes folder), as the fixed-context bench must see it.
    researchDir: researchDirIn(dir),
    http: { timeoutMs: 2000, retryBaseMs: 5 },
  });
  return {
    dir,
    ws,
    index,
    providers,
    context: (o = {}) => {
      const sessionId = o.sessionId ?? 'sess_test';
      return {
        fs: ws.fs.forSession(sessionId),
        writer: { actor: o.actor ?? 'agent', sessionId },
        limits: () => defaultGuardrailLimits,
        search: (req) => index.search(req),
        providers,
        model: o.model,
        signal: o.signal,
        asOf: o.asOf,
      };
    },
    close: () => {
      ws.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function researchDirIn(dir: string): string {
  const research = join(dir, 'research');
  mkdirSync(research, { recursive: true });
  return research;
}
