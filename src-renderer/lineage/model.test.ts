import { describe, expect, it } from 'vitest';
import { kindCounts, lineageHref, lineageRouteOf, pathHref, stepTime } from './model';

describe('the Lineage page model', () => {
  it('opens #/expressions/E-004/lineage as E-004’s lineage and nothing else', () => {
    // If this failed, "Trace this decision" would land on the Expressions list (or a wrong id's trace).
    expect(lineageRouteOf({ screen: 'expressions', rest: ['E-004', 'lineage'] })).toBe('E-004');
    expect(lineageRouteOf({ screen: 'expressions', rest: ['E-004'] })).toBeNull();
    expect(lineageRouteOf({ screen: 'views', rest: ['V-001', 'lineage'] })).toBeNull();
    expect(lineageRouteOf({ screen: 'expressions', rest: ['x', 'lineage'] })).toBeNull();
    expect(lineageHref('E-004')).toBe('#/expressions/E-004/lineage');
  });

  it('links a View or Expression path to its page and leaves session files as text', () => {
    // If this failed, a step's record link would open nothing or a wrong screen.
    expect(pathHref('/memory/views/V-001.md')).toBe('#/views/V-001');
    expect(pathHref('/memory/expressions/E-004.md')).toBe('#/expressions/E-004');
    expect(pathHref('/session/sess_1/results/A.md')).toBeNull();
  });

  it('shows each time to the second in UTC, says when none was recorded, and counts steps by kind', () => {
    // If this failed, the timeline would show raw ISO strings or hide that a time is missing.
    expect(stepTime('2026-11-27T23:53:07.384Z')).toBe('2026-11-27 23:53:07 UTC');
    expect(stepTime(null)).toBe('time not recorded');
    const s = (kind: 'task' | 'fetch') => ({ at: null, kind, title: '', summary: '', figures: [], links: [], recorded: true });
    expect(kindCounts([s('fetch'), s('task'), s('task')])).toEqual([
      { kind: 'fetch', n: 1 },
      { kind: 'task', n: 2 },
    ]);
  });
});
