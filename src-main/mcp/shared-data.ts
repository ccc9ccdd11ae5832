import type { ProviderSettings } from '../api/providers';
import { secretEnvVars, type SecretName } from '../config/secrets';
import { fetchFailure } from '../tools/fetch';
import { frameToolResult } from '../tools/loop';

/**
 * The PM's data sources as attached IDEs see them (`forge_fetch`): the host's own provider registry
 * behind a second, per-source switch (Settings → Data, `providers.<name>.shareWithMcp`, off unless
 * the PM turns it on). The registry does what it does for the analyst — validates the parameters,
 * refuses a request carrying a key, enforces the as-of date — and the answer is framed exactly as
 * the analyst's fetch result is framed: outside content, data and never instructions.
 */

/** What `forge_fetch` asks (and what `forge mcp` in remote mode sends to the app as `mcp/fetch`). */
export interface SharedFetchRequest {
  /** A provider name; absent: list the sources shared with attached IDEs. */
  source?: string;
  params?: Record<string, unknown>;
  /** YYYY-MM-DD: nothing dated after it is used (the analyst's session as-of). */
  as_of?: string;
}

/** The tool's answer: its text, and whether the client should read it as a failure. */
export interface SharedFetchAnswer {
  text: string;
  isError: boolean;
}

/** The shared sources, wherever they live (this process's registry, or the app's over its API). */
export interface SharedDataPort {
  fetch(request: SharedFetchRequest, signal?: AbortSignal): Promise<SharedFetchAnswer>;
}

/** A provider result, as the registry returns it (structurally: the MCP package does not import providers). */
interface FetchedResult {
  label: string;
  asOf: string;
  source: string;
  formatFull(): string;
}

/** The part of the host's ProviderRegistry this needs; the registry itself satisfies it. */
export interface SharableRegistry {
  get(name: string): unknown;
  enabled(name: string): boolean;
  names(): string[];
  catalogue(): string[];
  fetch(name: string, params: unknown, ctx: { signal?: AbortSignal; asOf?: string }): Promise<FetchedResult>;
}

export interface RegistrySharingOptions {
  registry: SharableRegistry;
  /** Settings → Data by provider name, read on every call so a switch applies at once. */
  settings: () => Record<string, Partial<ProviderSettings>> | undefined;
  /** The PM's API keys, read on every call: each is scrubbed from every answer, whatever a vendor echoes back. */
  secret?: (name: SecretName) => string | undefined;
}

/** The setting's words as the Data screen shows them, so a refusal tells the PM where to click. */
export const SHARE_TOGGLE_LABEL = 'Attached IDEs may fetch from this source';

/** An answer longer than this is cut (a long web page): an IDE's context is not the place for a whole site. */
export const MAX_ANSWER_CHARS = 100_000;

/** Keys shorter than this are too generic to scrub without mangling ordinary text (the registry's rule). */
const MIN_SECRET_CHARS = 12;

const SECRET_NAMES = Object.keys(secretEnvVars) as SecretName[];

const refusal = (text: string): SharedFetchAnswer => ({ text, isError: true });

/** Why a source may not be used, in a sentence that names the setting; undefined when it may. */
function notShared(name: string, shared: boolean): string | undefined {
  if (shared) return undefined;
  return (
    `The ${name} source is not shared with attached IDEs. The PM can allow it in Forge: Settings → Data → ${name} → ` +
    `"${SHARE_TOGGLE_LABEL}" (setting providers.${name}.shareWithMcp; off by default).`
  );
}

export function registrySharing(options: RegistrySharingOptions): SharedDataPort {
  const { registry } = options;
  const isShared = (name: string) => options.settings()?.[name]?.shareWithMcp === true;
  const sharedNames = () => registry.names().filter(isShared);

  const scrub = (text: string): string => {
    let out = text;
    for (const name of SECRET_NAMES) {
      const key = options.secret?.(name);
      if (key && key.length >= MIN_SECRET_CHARS) out = out.split(key).join('[key withheld]').split(encodeURIComponent(key)).join('[key withheld]');
    }
    return out;
  };

  const listing = (): SharedFetchAnswer => {
    const shared = new Set(sharedNames());
    const lines = registry.catalogue().filter((line) => shared.has(line.slice(0, line.indexOf(':'))));
    const others = registry.names().filter((n) => !shared.has(n));
    return {
      isError: false,
      text: [
        lines.length ? `Sources shared with attached IDEs (name: what it serves {params}):\n${lines.join('\n')}` : 'No source is shared with attached IDEs.',
        others.length ? `Not shared: ${others.join(', ')}. The PM can share one in Forge: Settings → Data → the source → "${SHARE_TOGGLE_LABEL}".` : '',
        lines.length ? 'Call forge_fetch with source and params; as_of (YYYY-MM-DD) keeps out anything dated after it.' : '',
      ]
        .filter(Boolean)
        .join('\n'),
    };
  };

  return {
    async fetch(request, signal) {
      if (request.source === undefined) return listing();
      const name = request.source;
      if (!registry.get(name)) {
        const shared = sharedNames();
        return refusal(`Unknown source "${name.slice(0, 64)}". Shared with attached IDEs: ${shared.join(', ') || 'none'}.`);
      }
      // A source switched off on the Data screen stays off for IDEs too; the registry says so.
      const why = registry.enabled(name) ? notShared(name, isShared(name)) : undefined;
      if (why) return refusal(why);

      // From here on, exactly the analyst's fetch: the registry, its failure line, its framing.
      let content: string;
      let failed = false;
      try {
        const result = await registry.fetch(name, request.params ?? {}, { signal, asOf: request.as_of });
        const full = result.formatFull();
        const cut = full.length > MAX_ANSWER_CHARS;
        content = [
          `[${name} | ${one(result.label)} | as of ${one(result.asOf)} | ${one(result.source)}]`,
          cut ? `${full.slice(0, MAX_ANSWER_CHARS)}\n… cut at ${MAX_ANSWER_CHARS.toLocaleString('en-US')} characters.` : full,
        ].join('\n');
      } catch (e) {
        failed = true;
        const kind = typeof (e as { kind?: unknown })?.kind === 'string' ? (e as { kind: string }).kind : 'unavailable';
        content = fetchFailure(name, kind, e instanceof Error ? e.message : String(e));
      }
      return { text: scrub(frameToolResult({ content, untrusted: true })), isError: failed };
    },
  };
}

const one = (s: string, max = 200) =>
  s
    .replace(/[\r\n|]+/g, ' ')
    .trim()
    .slice(0, max);
