import type { Route } from '../app/routes';

/**
 * `#/views/V-001` and `#/expressions/E-004` (a bare id, no `.md`) open the record's full page;
 * `#/views/V-001.md` keeps opening it in the screen's right pane.
 */
export function recordPageOf(route: Route): { kind: 'view' | 'expression'; id: string } | null {
  const head = route.rest[0] ?? '';
  if (route.rest.length !== 1) return null;
  if (route.screen === 'views' && /^V-\d{3,}$/.test(head)) return { kind: 'view', id: head };
  if (route.screen === 'expressions' && /^E-\d{3,}$/.test(head)) return { kind: 'expression', id: head };
  return null;
}
