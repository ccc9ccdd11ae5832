import { num, pct, table } from '../format';
import { fail } from '../numeric/validate';
import { type HistoricalVar, historicalVar, type NormalVar, normalVar, sampleMoments } from '../risk/var';
import { continuousKelly } from '../sizing/kelly';
import type { Report } from './report';

export function varReport(input: {
  method?: 'historical' | 'normal' | 'both';
  returns?: number[];
  mean?: number;
  stdev?: number;
  confidence: number;
  value?: number;
}): Report {
  const given = input.mean !== undefined || input.stdev !== undefined;
  if (given && (input.mean === undefined || input.stdev === undefined)) fail('the normal method needs both mean and stdev (or give returns to fit them).');
  const method = input.method ?? (input.returns ? 'both' : 'normal');
  if (method !== 'normal' && !input.returns) fail(`the ${method} method needs returns (period returns as decimals, or P&L).`);
  if (method === 'normal' && !input.returns && !given) fail('the normal method needs mean and stdev, or returns to fit them.');
  const a = input.confidence;
  const results: (HistoricalVar | NormalVar)[] = [];
  if (method !== 'normal') results.push(historicalVar(input.returns!, a, input.value));
  if (method !== 'historical') {
    const m = given ? { mean: input.mean!, stdev: input.stdev! } : sampleMoments(input.returns!);
    results.push(normalVar(m.mean, m.stdev, a, input.value));
  }
  // With a position value the numbers are money; without, fractions of the position.
  const show = (x: number) => (input.value === undefined ? pct(x, 3) : num(x, 2));
  const level = `${num(a * 100, 3)}%`;
  const parts = results.map((r) =>
    r.method === 'historical'
      ? `historical VaR ${show(r.var)}, ES ${show(r.es)} (L(${r.k}) of ${r.n} losses, k = ⌈n·α⌉)`
      : `normal VaR ${show(r.var)}, ES ${show(r.es)} (μ ${show(r.mean)}, σ ${show(r.stdev)}${given ? '' : ' fitted'})`,
  );
  const summary = `${level} one-period ${parts.join('; ')}. Loss positive; same period as the inputs, not scaled in time.`;
  const rows: (string | number)[][] = [];
  for (const r of results) {
    if (r.method === 'historical') {
      rows.push(
        ['historical VaR', show(r.var), `L(${r.k}) of ${r.n} ascending losses`],
        ['historical ES', show(r.es), `Acerbi–Tasche average beyond α (${r.tailCount} worse losses)`],
      );
    } else {
      rows.push(
        ['normal VaR', show(r.var), `−μ + σ·z_α, z_α = ${num(r.z, 6)}`],
        ['normal ES', show(r.es), '−μ + σ·φ(z_α)/(1 − α)'],
        ['normal μ / σ', `${show(r.mean)} / ${show(r.stdev)}`, given ? 'given' : 'sample mean, stdev (n − 1)'],
      );
    }
  }
  const body = [
    '## RISK',
    table(['measure', 'value', 'how'], rows),
    '',
    '## CONVENTIONS',
    `- confidence α = ${level}; loss L = −return${input.value !== undefined ? ` × value ${num(input.value, 2)}` : ''}, positive when money is lost.`,
    ...results.map((r) => `- ${r.method}: ${r.rule}.`),
    '- one period of the inputs (daily returns → 1-day VaR); no √t scaling is applied.',
  ].join('\n');
  return { label: `VaR/ES ${level} (${method})`, summary, body };
}

export function continuousKellyReport(input: { mean: number; vol: number; rate?: number; fraction: number }): Report {
  const r = continuousKelly({ mean: input.mean, vol: input.vol, ...(input.rate !== undefined ? { rate: input.rate } : {}) }, input.fraction);
  const summary = r.reason
    ? `Continuous Kelly: size 0 — ${r.reason}`
    : `Continuous Kelly f* = (μ − r)/σ² = (${pct(r.mean, 2)} − ${pct(r.rate, 2)})/${pct(r.vol, 2)}² = ${num(r.fullKelly, 4)}× capital; ${num(r.fraction)}× → ${num(r.recommended, 4)}×; growth ${pct(r.growthRecommended, 3)} per period (full: ${pct(r.growthFull, 3)}). Assumes log-normal returns and known μ, σ.`;
  const body = [
    '## SIZE',
    table(
      ['measure', 'value'],
      [
        ['expected return μ', num(r.mean, 6)],
        ['volatility σ', num(r.vol, 6)],
        ['risk-free rate r', num(r.rate, 6)],
        ['full Kelly f* = (μ − r)/σ²', num(r.fullKelly, 6)],
        ['fraction of Kelly applied', num(r.fraction, 4)],
        ['recommended fraction', num(r.recommended, 6)],
        ['growth g(f*) = r + (μ − r)²/(2σ²)', num(r.growthFull, 6)],
        ['growth at recommended', num(r.growthRecommended, 6)],
        ['reason for zero size', r.reason ?? '—'],
      ],
    ),
  ].join('\n');
  return { label: 'kelly (continuous)', summary, body };
}
