import { describe, expect, it } from 'vitest';
import { checkBaseUrl, healthLine, keyLabel, takesBaseUrl } from './model';

describe('provider health in words', () => {
  it('a healthy source says so, with what it serves and when it last fetched', () => {
    expect(healthLine({ enabled: true, health: { state: 'ok', detail: '3 datasets', checkedAt: '2026-11-23T14:05:09.000Z' } })).toEqual({
      tone: 'ok',
      label: 'Healthy',
      detail: '3 datasets · last fetch ok at 2026-11-23 14:05 UTC',
    });
    expect(healthLine({ enabled: true, health: { state: 'ok' } }).detail).toBe('');
  });

  it('a source lacking setup says why', () => {
    const line = healthLine({ enabled: true, health: { state: 'not_configured', detail: 'add a FRED API key in Settings' } });
    expect(line).toEqual({ tone: 'warn', label: 'Not configured', detail: 'add a FRED API key in Settings' });
  });

  it('a failing source shows its last error and since when', () => {
    const line = healthLine({ enabled: true, health: { state: 'failing', lastError: 'rate_limited: 429 from FRED', at: '2026-11-23T09:00:00.000Z' } });
    expect(line).toEqual({ tone: 'danger', label: 'Failing', detail: 'rate_limited: 429 from FRED (since 2026-11-23 09:00 UTC)' });
  });

  it('a switched-off source reads as off whatever its health', () => {
    expect(healthLine({ enabled: false, health: { state: 'ok' } }).label).toBe('Off');
  });
});

describe('keys and addresses', () => {
  it('names keys as Settings → API keys does', () => {
    expect(keyLabel('fredApiKey')).toBe('FRED API key');
    expect(keyLabel('braveApiKey')).toBe('Brave Search API key');
    expect(keyLabel('polygonApiKey')).toBe('Polygon API key');
    // A key the screen has no label for yet still reads as a key, not as a camel-case identifier.
    expect(keyLabel('quandlApiKey')).toBe('quandl API key');
  });

  it('offers a base URL only for sources that call a keyed vendor (or already have one)', () => {
    expect(takesBaseUrl({ secret: 'fredApiKey', settings: { enabled: true } })).toBe(true);
    expect(takesBaseUrl({ secret: null, settings: { enabled: true } })).toBe(false);
    expect(takesBaseUrl({ secret: null, settings: { enabled: true, baseUrl: 'http://127.0.0.1:9/' } })).toBe(true);
  });

  it('checks a base URL before saving: empty is the default, anything else must be http(s)', () => {
    expect(checkBaseUrl('')).toBeNull();
    expect(checkBaseUrl('https://api.stlouisfed.org/fred')).toBeNull();
    expect(checkBaseUrl('file:///etc/passwd')).toBe('must start with http:// or https://');
    expect(checkBaseUrl('api.example.com')).toBe('is not a web address (e.g. https://api.example.com)');
  });
});
