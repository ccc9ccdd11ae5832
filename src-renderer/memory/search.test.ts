import { describe, expect, it } from 'vitest';
import { hasToken, quickFilters, toggleToken } from './search';

describe('filter chips', () => {
  it('add a term to the filter and take it away again on a second click', () => {
    const on = toggleToken('inflation', 'status:active');
    expect(on).toBe('inflation status:active');
    expect(hasToken(on, 'status:active')).toBe(true);
    expect(toggleToken(on, 'status:active')).toBe('inflation');
  });

  it('do not mistake a longer term for the chip’s term', () => {
    expect(hasToken('status:active2', 'status:active')).toBe(false);
  });

  it('offer a 90-day window ending today and the confidence chip only for Views', () => {
    const today = new Date('2026-03-31T12:00:00Z');
    expect(quickFilters('views', today).map((f) => f.token)).toEqual(['status:active', 'confidence>=0.6', 'since:2025-12-31']);
    expect(quickFilters('expressions', today).map((f) => f.token)).toEqual(['status:active', 'since:2025-12-31']);
  });
});
