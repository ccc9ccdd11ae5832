#!/usr/bin/env node
// Kelly sizing for an Expression. JSON in on stdin, JSON out on stdout; bad input → {"error"} and exit 2.
//
// Two input shapes:
//   binary:   {"probability": 0.6, "win": 0.04, "loss": 0.02}
//             win / loss = return per unit of capital deployed if right / wrong (loss given as a positive number)
//   outcomes: {"outcomes": [{"probability": 0.5, "return": 0.2}, {"probability": 0.5, "return": -0.1}]}
// Options: "kelly_fraction" (default 0.5: half Kelly), "max_fraction" (cap on the fraction deployed),
//          "max_risk_pct" (default 5: the worst outcome may cost at most this % of NAV — the single-risk guardrail).
// Both shapes are validated the same way (the binary one becomes two outcomes first): probabilities in
// [0, 1] summing to 1; no return worse than −1; no positive edge → size 0 with a "reason"; no outcome that
// loses → an error (Kelly would be unbounded).
import { pathToFileURL } from 'node:url';

export class InputError extends Error {}

const num = (v, name) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new InputError(`"${name}" must be a finite number`);
  return v;
};

/** Expected log growth of capital when deploying fraction f. */
export function logGrowth(outcomes, f) {
  let g = 0;
  for (const o of outcomes) {
    const w = 1 + f * o.return;
    if (w <= 0) return -Infinity;
    g += o.probability * Math.log(w);
  }
  return g;
}

/** The f ≥ 0 that maximises expected log growth (root of Σ p·r / (1 + f·r) = 0, found by bisection). */
export function fullKelly(outcomes) {
  const live = outcomes.filter((o) => o.probability > 0);
  const edge = live.reduce((s, o) => s + o.probability * o.return, 0);
  if (edge <= 0) return 0;
  const worst = Math.min(...live.map((o) => o.return));
  const deriv = (f) => live.reduce((s, o) => s + (o.probability * o.return) / (1 + f * o.return), 0);
  let lo = 0;
  let hi = (1 / -worst) * (1 - 1e-12); // beyond this the worst outcome wipes out the capital
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (deriv(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The one validation both forms go through (the binary form is turned into two outcomes first), the
 * same rule as Forge's analytics library (src-main/providers/analytics/sizing/kelly.ts):
 * probabilities in [0, 1] summing to 1 within 1e-9; returns finite and no worse than −1 (the whole
 * capital deployed); at least one outcome with a positive probability that loses — else Kelly would
 * stake without limit, which means a losing scenario is missing.
 */
export function validateOutcomes(outcomes, form) {
  outcomes.forEach((o, i) => {
    const pName = form === 'binary' ? (i === 0 ? '"probability"' : '1 − "probability"') : `outcomes[${i}].probability`;
    const rName = form === 'binary' ? (i === 0 ? '"win"' : '"loss"') : `outcomes[${i}].return`;
    if (o.probability < 0 || o.probability > 1) throw new InputError(`${pName} must be between 0 and 1`);
    if (o.return < -1) {
      throw new InputError(
        `${rName} loses more than the capital deployed (${form === 'binary' ? o.return * -1 : o.return}); give returns per unit deployed as decimals (-0.1 = a 10% loss)`,
      );
    }
  });
  const sum = outcomes.reduce((s, o) => s + o.probability, 0);
  if (Math.abs(sum - 1) > 1e-9) throw new InputError(`outcome probabilities sum to ${Number(sum.toPrecision(12))}; they must sum to 1`);
  if (!outcomes.some((o) => o.probability > 0 && o.return < 0)) {
    throw new InputError('no outcome with a positive probability loses money, so Kelly is unbounded; include the losing scenarios');
  }
  return outcomes;
}

export function kelly(input) {
  if (typeof input !== 'object' || input === null) throw new InputError('input must be an object');
  let outcomes;
  let method;
  if (Array.isArray(input.outcomes)) {
    method = 'outcomes';
    if (input.outcomes.length < 2) throw new InputError('"outcomes" needs at least two scenarios');
    outcomes = input.outcomes.map((o, i) => ({ probability: num(o?.probability, `outcomes[${i}].probability`), return: num(o?.return, `outcomes[${i}].return`) }));
  } else {
    method = 'binary';
    const p = num(input.probability, 'probability');
    const win = num(input.win, 'win');
    const loss = num(input.loss, 'loss');
    if (win <= 0) throw new InputError('"win" must be positive (the return if the View is right)');
    if (loss <= 0) throw new InputError('"loss" must be positive (the loss if wrong, as a positive number)');
    outcomes = [
      { probability: p, return: win },
      { probability: 1 - p, return: -loss },
    ];
  }
  validateOutcomes(outcomes, method);
  const kellyFraction = input.kelly_fraction === undefined ? 0.5 : num(input.kelly_fraction, 'kelly_fraction');
  if (kellyFraction <= 0 || kellyFraction > 1) throw new InputError('"kelly_fraction" must be in (0, 1]');
  const maxRiskPct = input.max_risk_pct === undefined ? 5 : num(input.max_risk_pct, 'max_risk_pct');
  if (maxRiskPct <= 0) throw new InputError('"max_risk_pct" must be positive');
  const maxFraction = input.max_fraction === undefined ? null : num(input.max_fraction, 'max_fraction');
  if (maxFraction !== null && maxFraction <= 0) throw new InputError('"max_fraction" must be positive');

  const edge = outcomes.reduce((s, o) => s + o.probability * o.return, 0);
  const worstLoss = Math.max(0, -Math.min(...outcomes.filter((o) => o.probability > 0).map((o) => o.return)));
  const full = fullKelly(outcomes);
  const fractional = full * kellyFraction;
  let recommended = fractional;
  let cappedBy = null;
  if (maxFraction !== null && recommended > maxFraction) {
    recommended = maxFraction;
    cappedBy = 'max_fraction';
  }
  const riskCap = worstLoss > 0 ? maxRiskPct / 100 / worstLoss : Infinity;
  if (recommended > riskCap) {
    recommended = riskCap;
    cappedBy = 'max_risk_pct';
  }
  const notes = [];
  if (edge <= 0) notes.push('No edge on your own probabilities: the expected return is not positive, so Kelly says do not take it.');
  if (full > 1) notes.push(`Full Kelly is ${full.toFixed(2)}x capital (leverage); treat it as an upper bound, never a target.`);
  if (cappedBy === 'max_risk_pct') notes.push(`Capped so the worst outcome costs at most ${maxRiskPct}% of NAV.`);
  if (cappedBy === 'max_fraction') notes.push(`Capped at max_fraction ${maxFraction}.`);
  notes.push('Kelly assumes your probabilities are calibrated; if calibration for this category is poor, size below this.');

  return {
    method,
    reason: edge <= 0 ? 'no positive expected edge: the expected return is not positive, so the size is 0' : null,
    edge,
    worst_loss_per_unit: worstLoss,
    full_kelly: full,
    kelly_fraction: kellyFraction,
    fractional_kelly: fractional,
    recommended,
    capped_by: cappedBy,
    capital_at_risk_pct: recommended * worstLoss * 100,
    log_growth: { full: logGrowth(outcomes, full), recommended: logGrowth(outcomes, recommended) },
    notes,
  };
}

async function main() {
  let raw = '';
  for await (const chunk of process.stdin) raw += chunk;
  try {
    let input;
    try {
      input = JSON.parse(raw || 'null');
    } catch {
      throw new InputError('the input is not valid JSON');
    }
    process.stdout.write(JSON.stringify(kelly(input)) + '\n');
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stdout.write(JSON.stringify({ error: e.message }) + '\n');
    process.exitCode = 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
