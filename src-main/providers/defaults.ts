import { existsSync } from 'node:fs';
import type { Settings } from '../api/procedures';
import type { ProviderSettings } from '../api/providers';
import { secretEnvVars, type SecretName } from '../config/secrets';
import type { Db } from '../store/open';
import { ResponseCache } from './cache';
import { CsvProvider } from './csv';
import type { DataFolder } from './data-folder';
import { analyticsProvider } from './analytics';
import { EcbProvider } from './ecb';
import { EconomicProvider } from './economic';
import { createMarketProvider } from './market';
import { NewsProvider } from './news';
import { createResearchProvider, type PassageEmbedder, type PassageRanker } from './research';
import { TreasuryProvider } from './treasury';
import { WebProvider } from './web';
import { ProviderRegistry } from './registry';

/** What the providers the app registers need from the core: the database, keys and settings, read live. */
export interface ProviderDeps {
  /** The workspace database: the response cache lives in it (table provider_cache). */
  db: Db;
  secret: (name: SecretName) => string | undefined;
  /** Settings → Data, by provider name (read on every fetch so a change applies at once). */
  settings: () => Settings['providers'];
  /** CSV datasets served as `datasets` (the demo's sample files; none when absent). */
  csvDir?: string | null;
  /** The PM's data folder with the bundled samples, served as `datasets` in place of `csvDir` (the host builds and closes it). */
  dataFolder?: DataFolder | null;
  /** The broker-notes folder `research` indexes (`<dataDir>/research`); absent: no research provider. */
  researchDir?: string | null;
  /** What the host injects into `research`: the workspace's embedder and the search module's hybrid ranking. */
  research?: { embedder?: PassageEmbedder; rank?: PassageRanker };
  now?: () => Date;
  /** HTTP timing for vendor calls (tests shorten it). */
  http?: {
    timeoutMs?: number;
    retries?: number;
    retryBaseMs?: number;
    maxBytes?: number;
    /** Tests only: the web provider may read pages from a server on 127.0.0.1 (never other private addresses). */
    allowLoopback?: boolean;
  };
}

/**
 * The registry the app and its tests use. Registering a provider is one line below: construct it
 * with what it needs from `deps` (`cache`, `settingsOf(name)`, `deps.secret(...)`, `deps.http`).
 */
const SECRET_NAMES = Object.keys(secretEnvVars) as SecretName[];

export function buildProviderRegistry(deps: ProviderDeps): ProviderRegistry {
  const settingsOf = (name: string): Partial<ProviderSettings> => deps.settings()?.[name] ?? {};
  const cache = new ResponseCache(deps.db, deps.now);
  const registry = new ProviderRegistry([], {
    isEnabled: (name) => settingsOf(name).enabled ?? true,
    now: deps.now,
    secretValues: () => SECRET_NAMES.map((n) => deps.secret(n) ?? '').filter(Boolean),
  });

  registry.register(
    createMarketProvider({
      now: deps.now,
      alphaVantage: { apiKey: () => deps.secret('alphaVantageApiKey'), baseUrl: settingsOf('market').baseUrl || undefined, cache, ...deps.http },
      polygon: { apiKey: () => deps.secret('polygonApiKey'), cache, ...deps.http },
      stooq: { cache, ...deps.http },
    }),
  );
  registry.register(new EconomicProvider({ apiKey: () => deps.secret('fredApiKey'), baseUrl: () => settingsOf('economic').baseUrl, cache, ...deps.http }));
  registry.register(new TreasuryProvider({ baseUrl: () => settingsOf('treasury').baseUrl, cache, now: deps.now, ...deps.http }));
  registry.register(new EcbProvider({ baseUrl: () => settingsOf('ecb').baseUrl, cache, now: deps.now, ...deps.http }));
  registry.register(new NewsProvider({ feeds: () => settingsOf('news').feeds ?? [], cache, now: deps.now, ...deps.http }));
  if (deps.researchDir) registry.register(createResearchProvider({ db: deps.db, dir: deps.researchDir, now: deps.now, ...deps.research }));
  registry.register(
    new WebProvider({ apiKey: () => deps.secret('braveApiKey'), searchBaseUrl: settingsOf('web').baseUrl || undefined, cache, now: deps.now, ...deps.http }),
  );
  registry.register(analyticsProvider());
  if (deps.dataFolder) registry.register(new CsvProvider({ folder: deps.dataFolder }));
  else if (deps.csvDir && existsSync(deps.csvDir)) registry.register(new CsvProvider({ dir: deps.csvDir }));
  return registry;
}
