import { z } from 'zod';
import type { MissingMove, SeriesMove, ViewMoves } from './review-moves';

export const REVIEW_ACTIONS = ['hold', 'review', 'retire', 'update'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/**
 * What the morning review's trigger asks for at the end of the answer: a machine-readable verdict
 * per View, so the app can show which invalidation conditions fired without reading prose.
 */
export const REPORT_INSTRUCTION = [
  'End your answer with one fenced ```json block, one entry per View you assessed:',
  '{"views":[{"id":"V-001","invalidations_fired":["<a bullet of that View\'s INVALIDATION section, copied exactly>"],"action":"hold|review|retire|update","note":"<one line>"}]}',
  'List only conditions that have actually fired; an empty list means none did.',
].join('\n');

export interface FiredCondition {
  /** The View's own bullet when it matched; the model's text when it did not. */
  text: string;
  /** False: not one of the View's INVALIDATION bullets (the model paraphrased or invented it). */
  matched: boolean;
}

export interface ParsedViewVerdict {
  id: string;
  invalidationsFired: FiredCondition[];
  action: ReviewAction | null;
  note: string | null;
}

export interface ParsedReviewReport {
  /** False when the answer had no readable ```json block; the report then holds the moves only. */
  parsed: boolean;
  views: ParsedViewVerdict[];
  warnings: string[];
}

export interface ReviewReportView {
  id: string;
  title: string;
  status: string;
  moves: SeriesMove[];
  missing: MissingMove[];
  invalidationsFired: FiredCondition[];
  action: ReviewAction | null;
  note: string | null;
}

export interface ReviewReport {
  /** The schedule run it belongs to (absent for a report built outside a scheduled run). */
  runId?: number;
  sessionId: string | null;
  /** When the review ran (ISO). */
  at: string;
  /** The moves are measured from here: the previous morning review's start, or 24 h before `at`. */
  since: string;
  sinceSource: 'previous_review' | 'default_24h';
  parsed: boolean;
  views: ReviewReportView[];
  warnings: string[];
}

const NOTE_CHARS = 1000;
const CONDITION_CHARS = 500;

const verdictSchema = z.object({
  id: z.string().trim().min(1).max(40),
  invalidations_fired: z
    .array(z.string().max(CONDITION_CHARS * 4))
    .max(50)
    .default([]),
  // Checked below: an unknown action loses only itself, not the conditions that fired.
  action: z.string().nullish(),
  note: z.string().nullish(),
});
const blockSchema = z.object({ views: z.array(z.unknown()).max(500) });

const FENCE = /```json[^\S\n]*\n([\s\S]*?)\n?```/gi;

/** The answer without its trailing report block: the prose the run's summary shows. */
export function stripReportBlock(answer: string): string {
  const blocks = [...answer.matchAll(FENCE)];
  const last = blocks[blocks.length - 1];
  if (!last || last.index === undefined) return answer.trim();
  return `${answer.slice(0, last.index)}${answer.slice(last.index + last[0].length)}`.trim();
}

/** Whitespace, case, a bullet marker and closing punctuation do not make a different condition. */
const normalise = (s: string) =>
  s
    .replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '')
    .replace(/[\s.;:,]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * Reads the last ```json block of the analyst's answer. Never throws: a missing or malformed block
 * gives `parsed: false` with a warning; an unknown View id, or an entry that is not a verdict, is
 * dropped with a warning; a fired condition that is not one of the View's INVALIDATION bullets is
 * kept, marked `matched: false`.
 */
export function parseReviewReport(answer: string, views: readonly Pick<ViewMoves, 'id' | 'invalidation'>[]): ParsedReviewReport {
  const warnings: string[] = [];
  const blocks = [...answer.matchAll(FENCE)];
  const raw = blocks[blocks.length - 1]?.[1];
  if (raw === undefined) {
    return { parsed: false, views: [], warnings: ['The answer has no ```json report block, so no invalidation conditions were recorded.'] };
  }
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (e) {
    return { parsed: false, views: [], warnings: [`The report block is not valid JSON (${clip((e as Error).message, 120)}); nothing was recorded from it.`] };
  }
  const top = blockSchema.safeParse(data);
  if (!top.success) {
    return { parsed: false, views: [], warnings: ['The report block has no "views" list; nothing was recorded from it.'] };
  }
  const known = new Map(views.map((v) => [v.id.toUpperCase(), v]));
  const out: ParsedViewVerdict[] = [];
  top.data.views.forEach((entry, i) => {
    const v = verdictSchema.safeParse(entry);
    if (!v.success) {
      const issue = v.error.issues[0];
      warnings.push(`Entry ${i + 1} of the report block was dropped: ${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'not a verdict'}.`);
      return;
    }
    const view = known.get(v.data.id.toUpperCase());
    if (!view) {
      warnings.push(`The report names ${clip(v.data.id, 40)}, which is not a live View of this review; its entry was dropped.`);
      return;
    }
    if (out.some((o) => o.id === view.id)) {
      warnings.push(`The report names ${view.id} twice; only its first entry was kept.`);
      return;
    }
    const bullets = new Map(view.invalidation.map((b) => [normalise(b), b]));
    const fired: FiredCondition[] = [];
    for (const text of v.data.invalidations_fired) {
      if (!text.trim()) continue;
      const own = bullets.get(normalise(text));
      if (own === undefined) warnings.push(`${view.id}: "${clip(text.trim(), 80)}" is not one of its invalidation conditions.`);
      const entry = own === undefined ? { text: clip(text.trim(), CONDITION_CHARS), matched: false } : { text: own, matched: true };
      if (!fired.some((f) => f.text === entry.text)) fired.push(entry);
    }
    const action = v.data.action?.trim().toLowerCase() || null;
    const isAction = action !== null && (REVIEW_ACTIONS as readonly string[]).includes(action);
    if (action !== null && !isAction) warnings.push(`${view.id}: action "${clip(action, 30)}" is not one of ${REVIEW_ACTIONS.join(', ')}; it was left out.`);
    const note = v.data.note?.trim();
    out.push({ id: view.id, invalidationsFired: fired, action: isAction ? (action as ReviewAction) : null, note: note ? clip(note, NOTE_CHARS) : null });
  });
  return { parsed: true, views: out, warnings };
}

/** The moves and the analyst's verdicts, one row per live View. */
export function buildReviewReport(input: {
  runId?: number;
  sessionId: string | null;
  at: Date;
  since: Date;
  sinceSource: ReviewReport['sinceSource'];
  moves: readonly ViewMoves[];
  answer: string;
  /** Problems met before the answer (the market data could not be read at all). */
  warnings?: readonly string[];
}): ReviewReport {
  const parsed = parseReviewReport(input.answer, input.moves);
  const verdicts = new Map(parsed.views.map((v) => [v.id, v]));
  return {
    ...(input.runId === undefined ? {} : { runId: input.runId }),
    sessionId: input.sessionId,
    at: input.at.toISOString(),
    since: input.since.toISOString(),
    sinceSource: input.sinceSource,
    parsed: parsed.parsed,
    views: input.moves.map((m) => {
      const v = verdicts.get(m.id);
      return {
        id: m.id,
        title: m.title,
        status: m.status,
        moves: m.moves,
        missing: m.missing,
        invalidationsFired: v?.invalidationsFired ?? [],
        action: v?.action ?? null,
        note: v?.note ?? null,
      };
    }),
    warnings: [...(input.warnings ?? []), ...parsed.warnings],
  };
}

export interface ReportCounts {
  views: number;
  /** Views with at least one measured move. */
  moved: number;
  fired: number;
  unmatched: number;
  warnings: number;
}

export function reportCounts(r: Pick<ReviewReport, 'views' | 'warnings'>): ReportCounts {
  const fired = r.views.flatMap((v) => v.invalidationsFired);
  return {
    views: r.views.length,
    moved: r.views.filter((v) => v.moves.length > 0).length,
    fired: fired.length,
    unmatched: fired.filter((f) => !f.matched).length,
    warnings: r.warnings.length,
  };
}

/**
 * The one line the PM hears about: a warning (a desktop notification in the app) when conditions
 * fired, an info notice when the answer carried no readable report; nothing on a quiet morning.
 */
export function reviewNotice(r: ReviewReport): { level: 'warning' | 'info'; message: string } | null {
  const firing = r.views.filter((v) => v.invalidationsFired.length > 0);
  const n = firing.reduce((k, v) => k + v.invalidationsFired.length, 0);
  if (n > 0) {
    const unmatched = reportCounts(r).unmatched;
    const extra = unmatched ? `; ${unmatched} not among the View's own conditions` : '';
    return {
      level: 'warning',
      message: `Morning review: ${n} invalidation condition${n === 1 ? '' : 's'} fired (${firing.map((v) => v.id).join(', ')}${extra}).`,
    };
  }
  if (!r.parsed) return { level: 'info', message: 'Morning review finished without its structured report; read the answer in its session.' };
  return null;
}

/** The run summary's line about the report. */
export function reportSummaryLine(r: ReviewReport): string {
  const c = reportCounts(r);
  const parts = [
    `${c.moved} of ${c.views} live View${c.views === 1 ? '' : 's'} measured`,
    c.fired
      ? `${c.fired} invalidation condition${c.fired === 1 ? '' : 's'} fired (${r.views
          .filter((v) => v.invalidationsFired.length)
          .map((v) => v.id)
          .join(', ')})`
      : 'no invalidation condition fired',
  ];
  if (!r.parsed) parts.push('no structured report in the answer');
  return `Report: ${parts.join('; ')}.`;
}
