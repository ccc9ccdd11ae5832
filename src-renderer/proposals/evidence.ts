import type { MetaCandidateView } from '../../src-main/api/proposals';

/**
 * The evidence bar of one candidate lesson, in the PM's words: how many entries agree (of how many
 * the bar needs), how many argue the other way, and their summed weight.
 */
export function evidenceFigures(c: MetaCandidateView): { corroborating: string; contradictions: string; weight: string; meets: boolean } {
  const n = c.corroborating.length;
  return {
    corroborating: `${n} of ${c.bar.minCorroborations} corroborating`,
    contradictions: `${c.contradictions.length} ${c.contradictions.length === 1 ? 'contradiction' : 'contradictions'}`,
    weight: `weight ${c.weight.toFixed(2)}`,
    meets: n >= c.bar.minCorroborations && c.contradictions.length === 0,
  };
}

const VERDICTS: Record<string, string> = {
  proposed: 'Proposed',
  below_bar: 'Below the bar',
  contradicted: 'Contradicted',
  unknown_skill: 'No such skill',
  pending_exists: 'Already pending',
  no_new_evidence: 'Decided before',
  declined: 'Model declined',
  malformed: 'Discarded',
  model_failed: 'Model failed',
  no_model: 'Needs a model',
};

export function verdictLabel(verdict: string): string {
  return VERDICTS[verdict] ?? verdict.replace(/_/g, ' ');
}

/** `size_down_before_cb_meetings` → "size down before cb meetings". */
export function claimWords(claim: string): string {
  return claim.replace(/_/g, ' ');
}
