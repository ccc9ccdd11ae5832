import type { z } from 'zod';

/**
 * The one interface every data provider implements (seed §3.3: the analyst does not know or care
 * whether retail sales come from FRED, a vendor or a CSV). Declared once: the parameter schema
 * drives both the `fetch` tool's validation and its one-line description.
 */

/** What a provider returns: the data's own as-of date, where it came from, and two renderings. */
export interface ProviderResult {
  /** A short label for the one-line header, e.g. `RSAFS 2024-01..2026-10`. */
  label: string;
  /** The as-of date of the data (YYYY-MM-DD or ISO timestamp): the latest observation, publication or quote time. */
  asOf: string;
  /** Where it came from, e.g. `FRED RSAFS (vintage 2026-11-14)`, `csv resources/data/ust_yields.csv`. */
  source: string;
  /** The whole result as markdown; stored at /session/context/ctx_NNN.md. */
  formatFull(): string;
  /** About 100 tokens the model reads in the conversation. */
  formatSummary(): string;
  /** Content written by outsiders (news, web pages, broker notes): framed as data, never instructions. */
  untrusted?: boolean;
}

/** A provider's state as Settings → Data shows it. */
export type ProviderHealth =
  | { state: 'ok'; detail?: string; checkedAt?: string }
  | { state: 'not_configured'; detail: string }
  | { state: 'failing'; lastError: string; at: string };

/** What a fetch runs under: cancellation, and the date the session is "as of" (no data after it). */
export interface FetchContext {
  signal?: AbortSignal;
  /**
   * The session or retrospective runs as of this date (YYYY-MM-DD): the provider must not return
   * data published after it, and the registry refuses a result whose asOf is later.
   */
  asOf?: string;
  /** The clock (tests pass a fixed one). */
  now?: () => Date;
}

export interface DataProvider<P extends z.ZodType = z.ZodType> {
  /** Registry key, lower snake_case (`economic`, `market`, `news`, `research`, `web`, `analytics`). */
  readonly name: string;
  /** One line for the fetch tool: what it serves (no parameter list: that comes from `params`). */
  readonly description: string;
  /** The parameters, declared once (zod). Field descriptions (`.describe()`) become the tool's hints. */
  readonly params: P;
  /** The secret its API key is read from (e.g. `fredApiKey`), when it needs one: Settings names it. */
  readonly secret?: string;
  /** ok / not configured (e.g. no API key) / failing with its last error. */
  health(): ProviderHealth;
  fetch(params: z.output<P>, ctx: FetchContext): Promise<ProviderResult>;
}

/** A provider failure the analyst should read (bad params, unknown series, vendor down, as-of violation). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'bad_params' | 'not_found' | 'not_configured' | 'unavailable' | 'rate_limited' | 'as_of' | 'bad_response' = 'unavailable',
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
