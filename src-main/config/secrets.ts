import type { z } from 'zod';
import type { secretName } from '../api/procedures';

export type SecretName = z.infer<typeof secretName>;

/**
 * Where API keys live. The Electron shell encrypts them with the OS keychain (safeStorage);
 * headless mode reads the environment and keeps anything set through the UI in memory only,
 * because it has no safe place to write a secret to disk.
 */
export interface SecretStore {
  /** A sentence for the Settings screen: where secrets are kept in this mode. */
  readonly description: string;
  get(name: SecretName): string | undefined;
  set(name: SecretName, value: string | undefined): void;
}

export const secretEnvVars: Record<SecretName, string> = {
  anthropicApiKey: 'ANTHROPIC_API_KEY',
  voyageApiKey: 'VOYAGE_API_KEY',
  openaiApiKey: 'OPENAI_API_KEY',
  fredApiKey: 'FRED_API_KEY',
  alphaVantageApiKey: 'ALPHA_VANTAGE_API_KEY',
  braveApiKey: 'BRAVE_API_KEY',
  polygonApiKey: 'POLYGON_API_KEY',
  // Settings → Desk database: the same variable PostgreSQL's own tools read.
  deskDatabasePassword: 'PGPASSWORD',
};

/** Environment first, then values set during this run (never persisted). */
export class EnvSecretStore implements SecretStore {
  readonly description =
    'Headless mode: keys come from environment variables (ANTHROPIC_API_KEY, VOYAGE_API_KEY, OPENAI_API_KEY, FRED_API_KEY, ALPHA_VANTAGE_API_KEY, BRAVE_API_KEY, POLYGON_API_KEY, and PGPASSWORD for the desk database); a key or password pasted in Settings is kept in memory for this run only.';
  private readonly overrides = new Map<SecretName, string | undefined>();

  constructor(private readonly env: Record<string, string | undefined> = process.env) {}

  get(name: SecretName): string | undefined {
    if (this.overrides.has(name)) return this.overrides.get(name) || undefined;
    const v = this.env[secretEnvVars[name]];
    return v?.trim() ? v.trim() : undefined;
  }

  set(name: SecretName, value: string | undefined): void {
    this.overrides.set(name, value?.trim() ? value.trim() : undefined);
  }
}
