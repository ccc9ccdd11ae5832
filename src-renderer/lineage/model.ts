import type { ProcedureOutput } from '../../src-main/api';

/** The Lineage page's pure parts: its route, the words for each kind of step, where a path opens. */

export type LineageView = ProcedureOutput<'lineage/expression'>;
export type LineageStep = LineageView['steps'][number];

/** `#/expressions/E-004/lineage` opens E-004's lineage (under Expressions, so the sidebar stays there). */
export function lineageRouteOf(route: { screen: string; rest: string[] }): string | null {
  const [id, tail] = route.rest;
  if (route.screen !== 'expressions' || route.rest.length !== 2 || tail !== 'lineage' || !id || !/^E-\d{3,}$/.test(id)) return null;
  return id;
}

export const lineageHref = (id: string) => `#/expressions/${encodeURIComponent(id)}/lineage`;

export const kindLabel: Record<LineageStep['kind'], string> = {
  view: 'View',
  read: 'Read',
  search: 'Search',
  fetch: 'Fetch',
  task: 'Sub-agent',
  skill: 'Skill version',
  review: 'Review',
  guardrail: 'Guardrail check',
  write: 'Write',
  proposal: 'Proposal',
  decision: 'PM decision',
  outcome: 'Outcome',
  counterfactual: 'Counterfactual',
  gap: 'Not recorded',
};

/** A record path the app can open (`/memory/views/V-001.md` → the View's page); null for the rest. */
export function pathHref(path: string): string | null {
  const m = /^\/memory\/(views|expressions)\/([VE]-\d{3,})\.md$/.exec(path);
  return m ? `#/${m[1]}/${m[2]}` : null;
}

/** `2026-11-27T23:53:07.384Z` → `2026-11-27 23:53:07 UTC`: to the second, in one zone for the whole trace. */
export function stepTime(at: string | null): string {
  if (!at) return 'time not recorded';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(at);
  return m ? `${m[1]} ${m[2]} UTC` : at;
}

/** How many steps of each kind, for the summary line above the timeline ("2 sub-agents · 4 fetches"). */
export function kindCounts(steps: LineageStep[]): { kind: LineageStep['kind']; n: number }[] {
  const order = Object.keys(kindLabel) as LineageStep['kind'][];
  return order.map((kind) => ({ kind, n: steps.filter((s) => s.kind === kind).length })).filter((c) => c.n > 0);
}
