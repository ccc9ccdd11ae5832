import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after';

const h = (entries: Record<string, string>) => new Headers(entries);
const NOW = Date.parse('1999-12-31T23:57:59Z');

describe('retryAfterMs: what a rate-limited server asked for', () => {
  it('reads whole seconds, as RFC 9110 writes them ("Retry-After: 120")', () => {
    expect(retryAfterMs(h({ 'retry-after': '120' }), NOW)).toBe(120_000);
  });

  it("reads an HTTP date as the time left until then (RFC 9110's own example)", () => {
    expect(retryAfterMs(h({ 'retry-after': 'Fri, 31 Dec 1999 23:59:59 GMT' }), NOW)).toBe(120_000);
    // A date already past means "now", not a negative wait.
    expect(retryAfterMs(h({ 'retry-after': 'Fri, 31 Dec 1999 23:00:00 GMT' }), NOW)).toBe(0);
  });

  it("prefers Anthropic's and OpenAI's retry-after-ms, and takes fractional seconds", () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '1500', 'retry-after': '2' }), NOW)).toBe(1500);
    expect(retryAfterMs(h({ 'retry-after': '1.5' }), NOW)).toBe(1500);
    expect(retryAfterMs(h({ 'retry-after': '0' }), NOW)).toBe(0);
  });

  it('gives no answer for garbage, so the caller backs off by its own rule instead of waiting forever or not at all', () => {
    for (const bad of ['', '-5', 'soon', '5 minutes', 'NaN', 'Infinity', '1e9']) {
      expect(retryAfterMs(h({ 'retry-after': bad }), NOW), bad).toBeUndefined();
    }
    expect(retryAfterMs(h({}), NOW)).toBeUndefined();
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
  });
});
