import type { LineageStep } from '../api/lineage';
import { guardrailChecksFor, shownFigure, type GuardrailCheckRecord, type RuleCheck } from '../guardrails';
import type { Store } from '../store';

/**
 * The guardrail checks recorded for an Expression (guardrails/check-log.ts): at each write that put
 * it in front of the PM or changed it while live, and at the PM's approval. The figures are the ones
 * measured when the check ran, read back as stored — never recomputed against today's book.
 */

/** Printed as the guardrail messages and the Expression page print it (shownFigure); stored unrounded. */
const shown = (x: RuleCheck) =>
  x.value === null
    ? 'not measured'
    : typeof x.value === 'number'
      ? shownFigure(x.value, typeof x.limit === 'number' ? x.limit : undefined, x.rule === 'max_duration_contribution' ? 2 : 1)
      : x.value;

const STAGE: Record<string, string> = {
  written: 'passed at the write',
  blocked: 'blocked the write',
  not_written: 'passed, but the write was held for review',
  approved: 'passed at approval',
  refused: 'refused the approval',
};

function title(c: GuardrailCheckRecord, first: boolean): string {
  const failed = c.checks.filter((x) => !x.pass).length;
  const tally = failed ? `${failed} of ${c.checks.length} limits failed` : `all ${c.checks.length} limits pass`;
  const what = c.stage === 'write' && first && c.outcome === 'written' ? 'passed at the proposal' : STAGE[c.outcome];
  return `Guardrails ${what} — ${tally}`;
}

export function guardrailCheckStep(c: GuardrailCheckRecord, first: boolean): LineageStep {
  const figures = c.checks.flatMap((x) => [
    { label: `${x.rule} actual`, value: shown(x) },
    { label: `${x.rule} limit`, value: String(x.limit) },
    { label: `${x.rule} result`, value: x.pass ? 'pass' : 'fail' },
  ]);
  if (c.bookAsOf) figures.push({ label: 'book as of', value: c.bookAsOf });
  const lines = c.checks.map((x) => `${x.rule}: ${shown(x)} against ${x.limit} — ${x.pass ? 'pass' : `fail${x.message ? ` (${x.message})` : ''}`}`);
  const by = c.stage === 'approve' ? 'the PM approving it' : c.actor === 'agent' ? 'the analyst' : c.actor;
  return {
    at: c.at,
    kind: 'guardrail',
    title: title(c, first),
    summary: `Checked for ${by}, against the book then${c.bookAsOf ? ` (positions as of ${c.bookAsOf})` : ''}.\n${lines.join('\n')}`,
    figures,
    links: [c.path],
    recorded: true,
  };
}

/** One step per recorded check of `path`, in the order they ran; empty when none was recorded. */
export function guardrailSteps(store: Store, path: string): { steps: LineageStep[]; records: GuardrailCheckRecord[] } {
  const records = guardrailChecksFor(store.db, path);
  const firstWrite = records.find((r) => r.stage === 'write' && r.outcome === 'written');
  return { steps: records.map((r) => guardrailCheckStep(r, r === firstWrite)), records };
}
