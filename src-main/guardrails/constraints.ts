import { parse as parseYaml } from 'yaml';
import { InvalidInputError } from '../common/errors';
import { defaultGuardrailLimits, type GuardrailLimits } from './limits';

export const CONSTRAINTS_PATH = '/portfolio/constraints.md';

/** Header keys the PM may set each limit with (the guardrail rule's own name is accepted too). */
const KEYS: Record<string, keyof GuardrailLimits> = {
  max_single_risk: 'maxSingleRisk',
  max_gross: 'maxGross',
  max_gross_exposure: 'maxGross',
  max_duration: 'maxDuration',
  max_duration_contribution: 'maxDuration',
  max_factor_concentration: 'maxFactorConcentration',
};
const KNOWN = Object.keys(KEYS).join(', ');

export interface LimitsInForce {
  limits: GuardrailLimits;
  /** Which limits the PM's constraints.md sets; the others are Forge's defaults. */
  fromConstraints: Record<keyof GuardrailLimits, boolean>;
}

/** A number as the PM may write it: `2`, `2.5`, `"2"`, `2%` (a percentage limit only). */
function limitValue(raw: unknown, key: keyof GuardrailLimits): number | null {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return null;
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)\s*$/.exec(raw);
  // Duration is in years: "5%" there is a unit mistake, not a number to guess at.
  if (!m || (m[2] && key === 'maxDuration')) return null;
  return Number(m[1]);
}

/**
 * The hard limits in force, from the header of `/portfolio/constraints.md` (the `key: value` lines
 * above `---`), each line read with the YAML library: `2`, `2 # tighter`, `"2"` and `2%` all mean 2.
 * A limit line that cannot be read — not a number, zero or negative, set twice, an unknown `max_`
 * key — is refused naming its line: falling back to the default would silently loosen the PM's
 * limit. A limit not written at all takes Forge's default.
 */
export function readConstraints(constraintsMd: string | null): LimitsInForce {
  const own: Partial<Record<keyof GuardrailLimits, { value: number; line: number }>> = {};
  const lines = (constraintsMd ?? '').split('\n');
  const end = lines.findIndex((l) => l.trim() === '---');
  const header = end < 0 ? lines : lines.slice(0, end);
  header.forEach((text, i) => {
    const lineNo = i + 1;
    const m = /^\s*(max_[\w-]*)(\s*:)?/i.exec(text);
    if (!m) return;
    const key = m[1]!.toLowerCase();
    const refuse = (why: string) =>
      new InvalidInputError(`${CONSTRAINTS_PATH} line ${lineNo} ("${text.trim().slice(0, 60)}"): ${why}. No trade is checked until this line is fixed.`);
    const limit = KEYS[key];
    if (!limit) throw refuse(`${key} is not a limit Forge knows; the limits are ${KNOWN}`);
    if (!m[2]) throw refuse(`write it as \`${key}: <number>\``);
    let parsed: unknown;
    try {
      parsed = parseYaml(text.trim());
    } catch (e) {
      throw refuse(`it is not a readable \`key: value\` line (${(e as Error).message.split('\n')[0]})`);
    }
    const raw = parsed && typeof parsed === 'object' ? Object.values(parsed as Record<string, unknown>)[0] : undefined;
    const value = limitValue(raw, limit);
    if (value === null || !Number.isFinite(value)) throw refuse(`${key} must be a number${limit === 'maxDuration' ? ' of years' : ', e.g. 30 or 30%'}`);
    if (value <= 0) throw refuse(`${key} must be above 0`);
    if (limit === 'maxFactorConcentration' && value > 100) throw refuse(`${key} is a share of gross exposure, at most 100`);
    const before = own[limit];
    if (before) throw refuse(`${key} sets a limit line ${before.line} already sets; keep one`);
    own[limit] = { value, line: lineNo };
  });
  const d = defaultGuardrailLimits;
  return {
    limits: {
      maxSingleRisk: own.maxSingleRisk?.value ?? d.maxSingleRisk,
      maxGross: own.maxGross?.value ?? d.maxGross,
      maxDuration: own.maxDuration?.value ?? d.maxDuration,
      maxFactorConcentration: own.maxFactorConcentration?.value ?? d.maxFactorConcentration,
    },
    fromConstraints: {
      maxSingleRisk: own.maxSingleRisk !== undefined,
      maxGross: own.maxGross !== undefined,
      maxDuration: own.maxDuration !== undefined,
      maxFactorConcentration: own.maxFactorConcentration !== undefined,
    },
  };
}
