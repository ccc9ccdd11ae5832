import type { ValidationResult, Verdict } from './types';

/** The validator's instructions (standard): judge the output against the skill's Eval Criteria. */
export const STANDARD_VALIDATION_PROMPT = [
  "You check a sub-agent's analysis for a macro portfolio manager before the analyst relies on it.",
  'Judge the OUTPUT against the OBJECTIVE and every item of the CRITERIA. Do not redo the analysis.',
  'Answer in exactly this shape:',
  'VERDICT: PASS | REVISE | FAIL',
  'FEEDBACK: for REVISE or FAIL, the specific items that are missing or wrong and what would fix them; for PASS, one line on the weakest point.',
  'Use PASS when every criterion is met, REVISE when the output is usable after named fixes, FAIL when it cannot be relied on.',
].join('\n');

/** Contrastive validation: build the strongest counterargument and check the output answers it. */
export const CONTRASTIVE_VALIDATION_PROMPT = [
  'You are an adversarial validator for a macro portfolio manager.',
  '1. State the conclusion of the OUTPUT in one line.',
  '2. Build the strongest counterargument to it, using the CRITERIA as a guide to what matters.',
  '3. Decide whether the output already addresses that counterargument.',
  'Answer in exactly this shape:',
  'VERDICT: PASS (the counterargument is addressed or weak) | REVISE (it is material and unaddressed, but fixable) | FAIL (it breaks the conclusion)',
  'COUNTERARGUMENT: always state it, in two or three sentences.',
  'FEEDBACK: for REVISE or FAIL, the specific gap to close.',
].join('\n');

export function validationUserMessage(objective: string, criteria: string, output: string): string {
  return `OBJECTIVE:\n${objective}\n\nCRITERIA:\n${criteria || '(the skill states no Eval Criteria: judge against the objective)'}\n\nOUTPUT:\n${output}`;
}

const VERDICT_WORDS: Record<string, Verdict> = {
  pass: 'pass',
  passed: 'pass',
  accept: 'pass',
  accepted: 'pass',
  approve: 'pass',
  revise: 'revise',
  revision: 'revise',
  reject: 'revise',
  rejected: 'revise',
  fail: 'fail',
  failed: 'fail',
};

const LABELS = 'VERDICT|FEEDBACK|COUNTERARGUMENT|CONCLUSION';

/** The text after `LABEL:` up to the next label line (or the end). */
function field(text: string, label: string): string {
  const re = new RegExp(`^[\\s>*_#-]*${label}[*_]*\\s*[:：]\\s*([\\s\\S]*?)(?=^[\\s>*_#-]*(?:${LABELS})[*_]*\\s*[:：]|$(?![\\s\\S]))`, 'mi');
  const m = re.exec(text);
  return m ? m[1]!.replace(/[*_]+/g, '').trim() : '';
}

/**
 * Reads a validator's answer: `VERDICT: PASS|REVISE|FAIL` (the seed's accept/reject are understood:
 * reject means revise), `FEEDBACK:` and `COUNTERARGUMENT:`. Markdown emphasis around labels is
 * tolerated. An answer with no recognisable verdict is `unclear` — recorded, never read as a pass.
 */
export function parseVerdict(text: string, contrastive: boolean): ValidationResult {
  const verdictLine = field(text, 'VERDICT');
  const word = /[A-Za-z_]+/.exec(verdictLine)?.[0]?.toLowerCase() ?? '';
  const verdict: Verdict = VERDICT_WORDS[word] ?? 'unclear';
  let feedback = field(text, 'FEEDBACK');
  if (verdict === 'unclear' && !feedback) {
    const clip = text.trim().slice(0, 300);
    feedback = `The validator gave no VERDICT line; its answer began: ${clip || '(empty)'}`;
  }
  return { contrastive, verdict, feedback, counterargument: field(text, 'COUNTERARGUMENT'), raw: text };
}
