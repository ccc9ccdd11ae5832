/**
 * Data providers behind one interface (seed §3.3): the analyst's `fetch` tool does not know whether
 * retail sales come from a vendor API or a CSV file. A provider returns the full document (stored
 * in the session) and a short summary (what the model sees in the conversation).
 */
export interface FetchResult {
  /** A short label for the one-line header, e.g. `ust_yields 2026-10-01..2026-11-20`. */
  label: string;
  /** The whole result as markdown; stored at /session/context/ctx_NNN.md. */
  full: string;
  /** About 100 tokens the model reads in the conversation. */
  summary: string;
}

export interface ProviderInfo {
  name: string;
  /** One line: what it serves and which params it takes. Shown in the fetch tool description. */
  description: string;
}

export interface Provider extends ProviderInfo {
  fetch(params: Record<string, unknown>, signal?: AbortSignal): Promise<FetchResult>;
}

/** A provider failure the analyst should read (bad params, unknown dataset, vendor down). */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

const NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** Providers keyed by name; registration is configuration, not code in the tool. */
export class ProviderRegistry {
  private readonly byName = new Map<string, Provider>();

  constructor(providers: Provider[] = []) {
    for (const p of providers) this.register(p);
  }

  register(provider: Provider): void {
    if (!NAME.test(provider.name)) throw new Error(`Provider name "${provider.name}" must be lower snake_case (≤ 32 chars).`);
    if (this.byName.has(provider.name)) throw new Error(`A provider named "${provider.name}" is already registered.`);
    this.byName.set(provider.name, provider);
  }

  get(name: string): Provider | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  list(): ProviderInfo[] {
    return [...this.byName.values()].map((p) => ({ name: p.name, description: p.description }));
  }
}
