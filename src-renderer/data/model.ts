import type { ProcedureOutput } from '../../src-main/api';

/** What the Data screen shows of providers: health in words, key names, the settings that apply. */

export type ProviderView = ProcedureOutput<'providers/list'>['providers'][number];
export type ProviderHealth = ProviderView['health'];

export interface HealthLine {
  tone: 'ok' | 'off' | 'warn' | 'danger';
  label: string;
  detail: string;
}

/** "2026-11-23 14:05 UTC" from an ISO timestamp; the text as given when it is not one. */
export function formatWhen(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

/** One provider's state as a badge and a sentence: healthy, switched off, lacking setup (why), or failing (what and when). */
export function healthLine(p: Pick<ProviderView, 'enabled' | 'health'>): HealthLine {
  const h = p.health;
  if (!p.enabled) return { tone: 'off', label: 'Off', detail: 'Switched off: the analyst does not see this source.' };
  switch (h.state) {
    case 'ok': {
      const checked = h.checkedAt ? `last fetch ok at ${formatWhen(h.checkedAt)}` : '';
      return { tone: 'ok', label: 'Healthy', detail: [h.detail, checked].filter(Boolean).join(' · ') };
    }
    case 'not_configured':
      return { tone: 'warn', label: 'Not configured', detail: h.detail };
    case 'failing':
      return { tone: 'danger', label: 'Failing', detail: `${h.lastError} (since ${formatWhen(h.at)})` };
  }
}

/** The label Settings → API keys gives each key, so the PM finds the same words there. */
const keyLabels: Record<string, string> = {
  anthropicApiKey: 'Anthropic API key',
  voyageApiKey: 'Voyage API key',
  openaiApiKey: 'OpenAI-compatible API key',
  fredApiKey: 'FRED API key',
  alphaVantageApiKey: 'Alpha Vantage API key',
  braveApiKey: 'Brave Search API key',
  polygonApiKey: 'Polygon API key',
};

export function keyLabel(secret: string): string {
  return keyLabels[secret] ?? secret.replace(/ApiKey$/, ' API key');
}

/**
 * Whether the vendor's address can be changed here. The contract accepts a base URL for every
 * provider, but only those that call a keyed vendor API use one; local sources (CSV files,
 * notes, analytics) would ignore it, so the field is offered where it means something.
 */
export function takesBaseUrl(p: Pick<ProviderView, 'secret' | 'settings'>): boolean {
  return p.secret !== null || Boolean(p.settings.baseUrl);
}

/** A base URL as typed: '' means the vendor's default; otherwise it must be http(s). */
export function checkBaseUrl(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  try {
    const u = new URL(t);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must start with http:// or https://';
    return null;
  } catch {
    return 'is not a web address (e.g. https://api.example.com)';
  }
}
