import type { SecretStore } from '../config/secrets';
import type { DemoSpeed } from '../agent';
import type { ProviderDeps } from '../providers';
import type { McpStdioLaunch } from '../mcp';
import type { NodeScriptLauncher } from '../skills';

export type AppMode = 'electron' | 'headless' | 'test';

/** What it takes to build a core: from Electron, the headless host, the CLI or a test. */
export interface CoreConfig {
  /** The workspace folder (settings.json, forge.db, skills copy, sessions). Created if missing. */
  dataDir: string;
  mode: AppMode;
  /** Where API keys come from; headless default is the environment. */
  secrets?: SecretStore;
  /** Path to a better-sqlite3 native binding built for this runtime (Electron passes its own). */
  nativeBinding?: string;
  /**
   * A desk's PostgreSQL database (postgres://…) holding the workspace instead of `<dataDir>/forge.db`
   * (`forge serve --db`). The data folder still keeps this server's settings and skills copy.
   */
  database?: string;
  /**
   * Where `database` came from (Settings → Desk database shows it): --db, $FORGE_DB, the saved
   * setting, or none; and why a saved desk database was not opened at start, if it was not.
   */
  databaseChoice?: { from: 'flag' | 'environment' | 'setting' | 'none'; problem?: string };
  /**
   * Run the scheduled jobs (morning review, end of day, retrospective, monitoring). Default: on for
   * the app and `forge serve`, off in tests; one-shot CLI commands (`forge build`, `forge reindex`)
   * turn it off so a terminal command never starts the PM's morning review.
   */
  scheduler?: boolean;
  /**
   * Makes this core the demo workspace: the analyst (and its sub-agents and reviewer) is the
   * demo's scripted model over the demo material, never Claude, and market data come from its CSVs.
   */
  demo?: { demoDir: string; speed: DemoSpeed };
  /**
   * Tests only (the app sets none): the data providers' HTTP timing, and `allowLoopback` so a
   * local server can stand in for a web page end to end. Every other private address stays refused.
   */
  providerHttp?: ProviderDeps['http'];
  /**
   * How `.mjs` skill scripts start Node. The desktop shell passes a utility-process launcher (its
   * binary cannot run as Node in a packaged build); plain Node needs none (it spawns process.execPath).
   */
  nodeLauncher?: NodeScriptLauncher;
  /** How IDEs start this installation's stdio MCP server (the desktop shell: its own executable with --mcp). */
  mcpStdio?: McpStdioLaunch;
  /** Where Settings → Search downloads the semantic model from (default: `$FORGE_MODEL_BASE_URL`, else Hugging Face); the pinned checksums still apply. */
  modelBaseUrl?: string;
}
