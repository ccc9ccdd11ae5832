import { z } from 'zod';
import { type DataProvider, type FetchContext, ProviderError, type ProviderHealth, type ProviderResult } from './provider';

/** What Settings → Data and `providers/list` show of one provider. */
export interface ProviderInfo {
  name: string;
  description: string;
  /** The parameters as JSON Schema (field descriptions are the hints). */
  params: Record<string, unknown>;
  health: ProviderHealth;
  enabled: boolean;
  /** The secret it reads its API key from, when it needs one (e.g. `fredApiKey`). */
  secret?: string;
}

export interface ProviderRegistryOptions {
  /** Whether a provider is switched on (read live from settings); default: all on. */
  isEnabled?: (name: string) => boolean;
  now?: () => Date;
  /**
   * The API keys configured right now (read on every fetch). A request whose parameters carry one
   * is refused before anything leaves the machine: an instruction hidden in a page or a note must
   * not get a key into a URL (the model never sees keys, but a tool argument could still be built
   * from text that does).
   */
  secretValues?: () => string[];
}

/** Keys shorter than this are too generic to look for without refusing ordinary text. */
const MIN_SECRET_CHARS = 12;

const NAME = /^[a-z][a-z0-9_]{0,31}$/;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Kinds that say the source itself is in trouble (not the analyst's request): they mark it failing. */
const SOURCE_FAULTS = new Set<ProviderError['kind']>(['unavailable', 'rate_limited', 'bad_response']);

/**
 * Providers keyed by name (registration is configuration, not code in the tool). `fetch` is the
 * one way data comes in: it validates the parameters against the provider's schema, keeps each
 * provider's health, and enforces as-of — no result dated after the session's as-of date is used.
 */
export class ProviderRegistry {
  private readonly byName = new Map<string, DataProvider>();
  private readonly outcomes = new Map<string, ProviderHealth>();
  private readonly isEnabled: (name: string) => boolean;
  private readonly now: () => Date;
  private readonly secretValues: () => string[];

  constructor(providers: DataProvider[] = [], options: ProviderRegistryOptions = {}) {
    this.isEnabled = options.isEnabled ?? (() => true);
    this.secretValues = options.secretValues ?? (() => []);
    this.now = options.now ?? (() => new Date());
    for (const p of providers) this.register(p);
  }

  private carriesSecret(rawParams: unknown): boolean {
    const keys = this.secretValues().filter((k) => k && k.length >= MIN_SECRET_CHARS);
    if (keys.length === 0) return false;
    let text: string;
    try {
      text = JSON.stringify(rawParams ?? {});
    } catch {
      return false;
    }
    // Also the encoded forms a URL would carry.
    const forms = [text, safeDecode(text)];
    return keys.some((k) => forms.some((f) => f.includes(k)) || text.includes(encodeURIComponent(k)));
  }

  register(provider: DataProvider): void {
    if (!NAME.test(provider.name)) throw new Error(`Provider name "${provider.name}" must be lower snake_case (≤ 32 chars).`);
    if (this.byName.has(provider.name)) throw new Error(`A provider named "${provider.name}" is already registered.`);
    this.byName.set(provider.name, provider);
  }

  get(name: string): DataProvider | undefined {
    return this.byName.get(name);
  }

  enabled(name: string): boolean {
    return this.byName.has(name) && this.isEnabled(name);
  }

  /** Names of the providers switched on, in registration order. */
  names(): string[] {
    return [...this.byName.keys()].filter((n) => this.isEnabled(n));
  }

  list(): ProviderInfo[] {
    return [...this.byName.values()].map((p) => ({
      name: p.name,
      description: p.description,
      params: paramsJsonSchema(p.params),
      health: this.health(p),
      enabled: this.isEnabled(p.name),
      ...(p.secret ? { secret: p.secret } : {}),
    }));
  }

  /**
   * One line per switched-on provider for the fetch tool: `name: description {a, b?}` — the
   * parameter names come from the schema so they never drift from what is validated. A source
   * that lacks its key says so, so the model does not spend a call to find out.
   */
  catalogue(): string[] {
    return this.names().map((n) => {
      const p = this.byName.get(n)!;
      return `${n}: ${p.description} ${paramsSignature(p.params)}${p.health().state === 'not_configured' ? ' (not configured)' : ''}`;
    });
  }

  /** Health as last seen: not configured (from the provider), else failing since the last fault, else ok. */
  health(provider: DataProvider): ProviderHealth {
    const own = provider.health();
    if (own.state !== 'ok') return own;
    return this.outcomes.get(provider.name) ?? own;
  }

  /**
   * Validates `rawParams`, runs the provider under `ctx` and checks the result's as-of date.
   * Throws only ProviderError (a provider's own throw of anything else is wrapped).
   */
  async fetch(name: string, rawParams: unknown, ctx: FetchContext = {}): Promise<ProviderResult> {
    const provider = this.byName.get(name);
    if (!provider) throw new ProviderError(`Unknown source "${name.slice(0, 64)}". Available: ${this.names().join(', ') || 'none'}.`, 'not_found');
    if (!this.isEnabled(name)) throw new ProviderError(`The ${name} source is switched off on the Data screen.`, 'not_configured');
    if (ctx.asOf !== undefined && !isDay(ctx.asOf))
      throw new ProviderError(`The session's as-of date must be YYYY-MM-DD (got "${String(ctx.asOf).slice(0, 30)}").`, 'bad_params');
    if (this.carriesSecret(rawParams))
      throw new ProviderError(
        `The request to ${name} contains one of your API keys; Forge never sends a key anywhere in a request's parameters.`,
        'bad_params',
      );
    const params = parseParams(provider, rawParams ?? {});
    const own = provider.health();
    if (own.state === 'not_configured') throw new ProviderError(`${name} is not configured: ${own.detail}`, 'not_configured');
    if (ctx.signal?.aborted) throw new ProviderError(`Stopped before fetching from ${name}.`, 'unavailable');

    let result: ProviderResult;
    try {
      result = await provider.fetch(params, { ...ctx, now: ctx.now ?? this.now });
    } catch (e) {
      const err = e instanceof ProviderError ? e : new ProviderError(`${name} failed: ${(e as Error)?.message ?? String(e)}`.slice(0, 500), 'unavailable');
      if (SOURCE_FAULTS.has(err.kind))
        this.outcomes.set(name, { state: 'failing', lastError: `${err.kind}: ${err.message}`.slice(0, 300), at: this.now().toISOString() });
      throw err;
    }
    if (typeof result?.asOf !== 'string' || !isDay(result.asOf.slice(0, 10))) {
      const err = new ProviderError(`${name} returned a result without a readable as-of date (got "${String(result?.asOf).slice(0, 30)}").`, 'bad_response');
      this.outcomes.set(name, { state: 'failing', lastError: err.message, at: this.now().toISOString() });
      throw err;
    }
    const day = result.asOf.slice(0, 10);
    if (ctx.asOf && day > ctx.asOf) {
      throw new ProviderError(
        `${name} returned data as of ${day} (${result.label}): data after ${ctx.asOf} is not used in a session as of ${ctx.asOf}. Ask for a range ending on or before ${ctx.asOf}.`,
        'as_of',
      );
    }
    this.outcomes.set(name, { state: 'ok', checkedAt: this.now().toISOString() });
    return result;
  }
}

function isDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Parameters validated against the provider's schema; an unknown field is refused, not ignored. */
function parseParams(provider: DataProvider, raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ProviderError(`params must be an object such as ${paramsSignature(provider.params, { full: true })}.`, 'bad_params');
  }
  const known = objectKeys(provider.params);
  if (known) {
    const unknown = Object.keys(raw).filter((k) => !known.includes(k));
    if (unknown.length) {
      throw new ProviderError(
        `params.${unknown[0]}: not a parameter of ${provider.name}; it takes ${paramsSignature(provider.params, { full: true })}.`,
        'bad_params',
      );
    }
  }
  const parsed = provider.params.safeParse(raw);
  if (!parsed.success) throw new ProviderError(describeParamsError(parsed.error, fieldHints(provider.params)), 'bad_params');
  return parsed.data;
}

/**
 * "params.start: Invalid input … (first date, YYYY-MM-DD); params.units: …" — the fields the
 * analyst must fix, each with its hint from the schema: the tool description carries only the
 * names, so the hints arrive when they are needed.
 */
export function describeParamsError(error: z.ZodError, hints: Record<string, string> = {}, limit = 4): string {
  return error.issues
    .slice(0, limit)
    .map((i) => {
      const hint = typeof i.path[0] === 'string' ? hints[i.path[0]] : undefined;
      return `params${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}${hint ? ` (${hint})` : ''}`;
    })
    .join('; ');
}

function fieldHints(schema: z.ZodType): Record<string, string> {
  const props = (paramsJsonSchema(schema).properties as Record<string, { description?: unknown }> | undefined) ?? {};
  return Object.fromEntries(Object.entries(props).flatMap(([k, v]) => (typeof v?.description === 'string' ? [[k, v.description]] : [])));
}

function objectKeys(schema: z.ZodType): string[] | null {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : null;
}

/** The parameters as JSON Schema, as Settings and `providers/list` show them. */
export function paramsJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** `{dataset, columns?, start?}`: required names bare, optional ones with `?`. */
export function paramsSignature(schema: z.ZodType, options: { full?: boolean } = {}): string {
  return signatureOf(paramsJsonSchema(schema), options.full ? Number.POSITIVE_INFINITY : SIGNATURE_FIELDS);
}

/** `{a, b?}`; a union of objects (zod discriminated union → `oneOf`) names its discriminator's values: `{calc: x|y, …}`. */
function signatureOf(json: Record<string, unknown>, cap: number): string {
  const branches = (json.oneOf ?? json.anyOf) as Record<string, unknown>[] | undefined;
  if (Array.isArray(branches) && branches.length) {
    const props = branches.map((b) => (b.properties as Record<string, { const?: unknown; enum?: unknown[] }> | undefined) ?? {});
    const key = Object.keys(props[0] ?? {}).find((k) => props.every((p) => p[k]?.const !== undefined || p[k]?.enum?.length === 1));
    if (key) return `{${key}: ${props.map((p) => String(p[key]!.const ?? p[key]?.enum?.[0])).join('|')}, …}`;
    return branches.map((b) => signatureOf(b, cap)).join(' | ');
  }
  const props = Object.keys((json.properties as Record<string, unknown> | undefined) ?? {});
  const required = new Set((json.required as string[] | undefined) ?? []);
  // Required fields first, then optional ones up to a short list: the analyst's fixed context
  // carries every provider's line, and a bad or missing field is named (with its hint) on use.
  const ordered = [...props.filter((p) => required.has(p)), ...props.filter((p) => !required.has(p)).map((p) => `${p}?`)];
  const shown = ordered.slice(0, Math.max(cap, required.size));
  return `{${shown.join(', ')}${ordered.length > shown.length ? ', …' : ''}}`;
}

/** How many fields a provider's line in the fetch tool names before `…`. */
const SIGNATURE_FIELDS = 4;
