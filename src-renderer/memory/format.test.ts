import { describe, expect, it } from 'vitest';
import { headerValue, metaParts, recordBody, relativeTime, screenOfId } from './format';

describe('record display helpers', () => {
  it('shows only the body below the header separator', () => {
    const md = '# V-001 — Consumer slowdown\nstatus: active\nconfidence: 0.7\n---\n## SUMMARY\nWeak spending.';
    expect(recordBody(md)).toBe('## SUMMARY\nWeak spending.');
    expect(recordBody('no header here')).toBe('no header here');
  });

  it('splits listing metadata into chips', () => {
    expect(metaParts('US rates | conf:0.7 | active')).toEqual(['US rates', 'conf:0.7', 'active']);
    expect(metaParts('')).toEqual([]);
  });

  it('describes times relative to now', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(relativeTime('2026-03-10T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2026-03-10T11:15:00Z', now)).toBe('45 min ago');
    expect(relativeTime('2026-03-10T07:00:00Z', now)).toBe('5 h ago');
    expect(relativeTime('2026-03-09T07:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-01-02T07:00:00Z', now)).toBe('2 Jan');
    expect(relativeTime('2025-01-02T07:00:00Z', now)).toBe('2 Jan 2025');
    expect(relativeTime(null, now)).toBe('—');
  });

  it('prints header values of every type', () => {
    expect(headerValue(['E-001', 'E-002'])).toBe('E-001, E-002');
    expect(headerValue(0.65)).toBe('0.65');
    expect(headerValue({ bull: 0.3 })).toBe('{"bull":0.3}');
  });

  it('links View and Expression ids to their screens', () => {
    expect(screenOfId('V-012')).toEqual({ screen: 'views', file: 'V-012.md' });
    expect(screenOfId('E-3')).toEqual({ screen: 'expressions', file: 'E-3.md' });
    expect(screenOfId('PK-1')).toBeNull();
  });
});
