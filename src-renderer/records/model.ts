import type { MemoryVersion } from '../../src-main/api/memory';
import type { ReviewReportView } from '../../src-main/api/schedule';

/**
 * What the View and Expression pages derive from a record's text and history: scenarios with their
 * probabilities, the confidence series over versions, the state of each invalidation condition,
 * and the sizing fields. Pure, so each rule is tested without a browser.
 */

export interface Scenario {
  name: string;
  /** 0–100; null when the line states none. */
  probability: number | null;
  text: string;
}

/** The lines of one `## NAME` section of a record body, or [] when it has none. */
export function sectionLines(body: string, name: string): string[] {
  const lines = body.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((l) => new RegExp(`^##\\s+${name}\\s*$`, 'i').test(l.trim()));
  if (start < 0) return [];
  const out: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (/^##\s/.test(l.trim())) break;
    out.push(l);
  }
  return out;
}

const bullet = /^\s*(?:[-*•]|\d+[.)])\s+(.*)$/;

/** The bullet items of a section (continuation lines folded into their bullet). */
export function sectionBullets(body: string, name: string): string[] {
  const items: string[] = [];
  for (const l of sectionLines(body, name)) {
    const m = bullet.exec(l);
    if (m) items.push(m[1]!.trim());
    else if (l.trim() && items.length) items[items.length - 1] += ` ${l.trim()}`;
  }
  return items.filter((i) => i.length > 0);
}

/**
 * `- Base (60%): two cuts…` → { name: 'Base', probability: 60, text: 'two cuts…' }. Also reads
 * `Base: 60% — …`, `Base (p=0.6)` and `Base 0.6:`. A line with no number keeps probability null.
 */
export function parseScenarios(body: string): Scenario[] {
  return sectionBullets(body, 'SCENARIOS').map((item) => {
    const colon = item.indexOf(':');
    const head = colon >= 0 ? item.slice(0, colon) : item;
    let rest = colon >= 0 ? item.slice(colon + 1).trim() : '';
    let probability = readProbability(head);
    if (probability === null) {
      // `Base: 60% — two cuts`: the number opens the text instead.
      const lead = /^(\d{1,3}(?:\.\d+)?)\s*%\s*[—–,;-]?\s*/.exec(rest);
      if (lead) {
        probability = Number(lead[1]);
        rest = rest.slice(lead[0].length);
      }
    }
    const name = head
      .replace(/\(.*?\)/g, '')
      .replace(/\b(?:p\s*=\s*)?\d+(?:\.\d+)?\s*%?/g, '')
      .replace(/\*\*/g, '')
      .trim();
    return { name: name || head.trim(), probability: probability !== null && probability >= 0 && probability <= 100 ? probability : null, text: rest };
  });
}

function readProbability(head: string): number | null {
  const pct = /(\d{1,3}(?:\.\d+)?)\s*%/.exec(head);
  if (pct) return Number(pct[1]);
  const frac = /(?:p\s*=\s*)?\b(0?\.\d+|1\.0+|0|1)\b/.exec(head);
  if (frac) return Math.round(Number(frac[1]) * 1000) / 10;
  return null;
}

/** The sum of stated probabilities, and whether it is far enough from 100 to tell the PM. */
export function probabilityTotal(scenarios: Scenario[]): { total: number; off: boolean } {
  const stated = scenarios.filter((s) => s.probability !== null);
  const total = Math.round(stated.reduce((a, s) => a + (s.probability ?? 0), 0) * 10) / 10;
  return { total, off: stated.length > 0 && Math.abs(total - 100) > 0.5 };
}

export interface ConfidencePoint {
  at: string;
  confidence: number;
  label: string;
}

/**
 * Confidence over versions, oldest first: each archived version at the moment it was replaced
 * (memory/history gives newest first), then the current one at its last update. Versions without
 * a confidence are left out rather than drawn as zero.
 */
export function confidenceSeries(versions: MemoryVersion[], current: { confidence: number | null; updatedAt: string } | null): ConfidencePoint[] {
  const points = [...versions]
    .reverse()
    .filter((v): v is MemoryVersion & { confidence: number } => v.confidence !== null)
    .map((v, i) => ({ at: v.archivedAt, confidence: v.confidence, label: `version ${i + 1}` }));
  points.forEach((p, i) => {
    p.label = `version ${i + 1}`;
  });
  if (current && current.confidence !== null) points.push({ at: current.updatedAt, confidence: current.confidence, label: 'current' });
  return points;
}

export type ConditionState = 'fired' | 'not_fired' | 'unknown';

export interface ConditionStatus {
  text: string;
  state: ConditionState;
  /** Why the state is what it is, in the PM's words. */
  basis: string;
  /** The morning review run that decided it, when one did. */
  runId: number | null;
}

const normalise = (s: string) =>
  s
    .replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '')
    .replace(/[\s.;:,]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** The View's invalidation conditions: its `## INVALIDATION` bullets, or a header list when it keeps them there. */
export function invalidationConditions(body: string, header: Record<string, unknown>): string[] {
  const fromBody = sectionBullets(body, 'INVALIDATION');
  if (fromBody.length) return fromBody;
  const h = header.invalidation ?? header.invalidation_conditions ?? header.invalidations;
  if (Array.isArray(h)) return h.map(String).filter((s) => s.trim());
  if (typeof h === 'string' && h.trim()) return [h.trim()];
  return [];
}

/**
 * Each condition's state from the newest morning review that covered this View: fired when that
 * review says so, not fired when it read the View and did not, unknown when no review has looked
 * at it yet (or its report could not be read). Conditions a review says fired that are not among
 * the View's own come back as `extra`.
 */
export function conditionStates(
  viewId: string,
  conditions: string[],
  reports: ReviewReportView[],
): { conditions: ConditionStatus[]; extra: string[]; reviewedAt: string | null } {
  const covering = reports.filter((r) => r.views.some((v) => v.id === viewId)).sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))[0];
  if (!covering) {
    return {
      conditions: conditions.map((text) => ({ text, state: 'unknown', basis: 'Not evaluated yet: no morning review has covered this View.', runId: null })),
      extra: [],
      reviewedAt: null,
    };
  }
  const entry = covering.views.find((v) => v.id === viewId)!;
  const fired = new Set(entry.invalidationsFired.map((f) => normalise(f.text)));
  const day = covering.at.slice(0, 10);
  const runId = covering.runId ?? null;
  const own = new Set(conditions.map(normalise));
  return {
    conditions: conditions.map((text) => {
      if (fired.has(normalise(text))) return { text, state: 'fired', basis: `Fired in the morning review of ${day}.`, runId };
      if (!covering.parsed) return { text, state: 'unknown', basis: `The morning review of ${day} gave no readable verdict.`, runId };
      return { text, state: 'not_fired', basis: `Not fired in the morning review of ${day}.`, runId };
    }),
    extra: entry.invalidationsFired.filter((f) => !own.has(normalise(f.text))).map((f) => f.text),
    reviewedAt: covering.at,
  };
}

export interface SizingField {
  key: string;
  label: string;
  value: string;
  numeric: boolean;
}

const sizingOrder: [string, string][] = [
  ['instrument', 'Instrument'],
  ['direction', 'Direction'],
  ['notional', 'Notional (% of NAV)'],
  ['max_loss_pct', 'Max loss (% of NAV)'],
  ['duration_impact', 'Duration impact (years)'],
  ['factor', 'Factor'],
  ['entry', 'Entry'],
  ['stop', 'Stop'],
  ['target', 'Target'],
  ['dv01', 'DV01'],
  ['size', 'Size'],
];

/** The Expression's sizing fields in a fixed order, then any other field that names a size or risk. */
export function sizingFields(header: Record<string, unknown>): SizingField[] {
  const out: SizingField[] = [];
  const seen = new Set<string>();
  const push = (key: string, label: string) => {
    const v = header[key];
    if (v === undefined || v === null || v === '') return;
    seen.add(key);
    const numeric = typeof v === 'number' || (typeof v === 'string' && /^-?\d+(?:\.\d+)?$/.test(v.trim()));
    out.push({ key, label, value: Array.isArray(v) ? v.join(', ') : String(v), numeric });
  };
  for (const [k, l] of sizingOrder) push(k, l);
  for (const k of Object.keys(header)) {
    if (!seen.has(k) && /(notional|loss|risk|size|sizing|dv01|stop|target|leverage|delta|vega)/i.test(k)) push(k, k.replace(/_/g, ' '));
  }
  return out;
}

/** `approve_with_notes` → `Approve with notes`; what the page calls each reviewer verdict. */
export function verdictLabel(verdict: string): string {
  const words: Record<string, string> = {
    approve: 'Approve',
    approve_with_notes: 'Approve with notes',
    revise: 'Revise',
    escalate: 'Escalate to the PM',
    unclear: 'No clear verdict',
  };
  return words[verdict] ?? verdict.replace(/_/g, ' ');
}

/** Memory folders whose records can cite a View, and the query that finds those citing `id`. */
export function linkQueries(id: string): { folder: string; noun: string; query: string }[] {
  return [
    { folder: '/memory/expressions/', noun: 'Expressions', query: `view:${id}` },
    { folder: '/memory/observations/', noun: 'Observations', query: `relates_to:${id}` },
    { folder: '/memory/pk/', noun: 'Process Knowledge', query: `"${id}"` },
    { folder: '/memory/linkages/', noun: 'Linkages', query: `"${id}"` },
  ];
}

/** The route that opens a record id: the full page for Views and Expressions, the memory pane otherwise. */
export function recordHref(id: string): string | null {
  if (/^V-\d+$/.test(id)) return `#/views/${id}`;
  if (/^E-\d+$/.test(id)) return `#/expressions/${id}`;
  return null;
}
