import type { BondInput } from '../curves/bootstrap';
import { bondRisk, type YieldCompounding } from '../curves/bond-risk';
import type { CurveFit } from '../curves/nelson-siegel';
import { svenssonCurve } from '../curves/svensson';
import { analyseCurve, type CurveModel } from '../curve-analysis';
import { num, pct, table } from '../format';
import type { Report } from './report';

const CHART_ROWS = 21;

function fitLine(name: string, f: CurveFit): string {
  const p = f.params;
  const extra = p.model === 'nss' ? `, β3 ${pct(p.beta3)}, λ2 ${num(p.lambda2)}` : '';
  return `${name}: β0 ${pct(p.beta0)} (long end), β1 ${pct(p.beta1)} (short end ${pct(p.beta0 + p.beta1)}), β2 ${pct(p.beta2)}, λ ${num(p.lambda1)}/yr${extra}; RMSE ${num(f.rmse * 1e4, 2)}bp`;
}

export function curveReport(input: { bonds?: BondInput[]; points?: { maturity: number; rate: number }[]; model: CurveModel; bootstrapOnly: boolean }): Report {
  const a = analyseCurve({ bonds: input.bonds, points: input.points, model: input.bootstrapOnly ? 'none' : input.model, chartPoints: CHART_ROWS });
  const fits = [a.ns && fitLine('Nelson–Siegel', a.ns), a.nss && fitLine('Svensson', a.nss)].filter((x): x is string => !!x);
  const z = a.zeros;
  const first = z[0]!;
  const last = z[z.length - 1]!;
  const what = input.bonds?.length ? `Bootstrapped ${z.length} zero rates from ${input.bonds.length} bonds` : `${z.length} zero rates`;
  const summary = [
    `${what}: ${num(first.maturity)}y ${pct(first.zeroContinuous)} → ${num(last.maturity)}y ${pct(last.zeroContinuous)} (continuous; annual ${pct(first.zeroAnnual)} → ${pct(last.zeroAnnual)}).`,
    ...(input.bootstrapOnly ? [] : fits.map((f) => `${f}.`)),
    ...(input.bonds?.length ? ['Every bond reprices exactly on the bootstrapped curve.'] : []),
  ].join(' ');
  const sections = [
    '## ZERO RATES',
    table(
      ['maturity (y)', 'zero (continuous)', 'zero (annual)', 'discount factor', 'forward from previous'],
      z.map((n, i) => [num(n.maturity), pct(n.zeroContinuous, 4), pct(n.zeroAnnual, 4), num(n.discountFactor, 6), i ? pct(a.forwards[i - 1]!.rate, 4) : '—']),
    ),
  ];
  if (!input.bootstrapOnly) {
    sections.push('', '## FIT', ...fits.map((f) => `- ${f}`));
    sections.push(
      '',
      '## CURVE',
      table(
        ['maturity (y)', 'linear', 'monotone cubic', ...(a.ns ? ['Nelson–Siegel', 'NS forward'] : []), ...(a.nss ? ['Svensson'] : [])],
        a.chart.map((c) => [
          num(c.maturity, 3),
          pct(c.linear),
          pct(c.monotone),
          ...(a.ns ? [pct(c.ns), pct(c.nsForward)] : []),
          ...(a.nss ? [pct(c.nss)] : []),
        ]),
      ),
    );
    if (a.nss) sections.push(...svenssonParSection(a.nss, last.maturity));
  }
  return { label: input.bootstrapOnly ? `bootstrap ${z.length} bonds` : `curve fit (${input.model}) ${z.length} points`, summary, body: sections.join('\n') };
}

/** Par yields (semiannual, coupon-equivalent) off the fitted Svensson curve at standard tenors inside the fitted range. */
function svenssonParSection(fit: CurveFit, longest: number): string[] {
  const p = fit.params;
  if (Math.abs(p.beta0) > 1 || Math.abs(p.beta0 + p.beta1) > 1) return [];
  const c = svenssonCurve({ beta0: p.beta0, beta1: p.beta1, beta2: p.beta2, beta3: p.beta3 ?? 0, tau1: 1 / p.lambda1, tau2: 1 / (p.lambda2 ?? 1) });
  const tenors = [1, 2, 3, 5, 7, 10, 20, 30].filter((t) => t <= longest + 1e-9);
  if (!tenors.length) return [];
  return [
    '',
    '## SVENSSON PAR YIELDS',
    table(
      ['tenor (y)', 'zero (continuous)', 'par (semiannual)'],
      tenors.map((t) => [num(t), pct(c.zero(t), 4), pct(c.parYield(t, 2), 4)]),
    ),
  ];
}

export function bondRiskReport(input: { maturity: number; coupon: number; yield: number; frequency?: 1 | 2 | 4 | 12; compounding: YieldCompounding }): Report {
  const bond = { maturity: input.maturity, coupon: input.coupon, ...(input.frequency ? { frequency: input.frequency } : {}) };
  const r = bondRisk(bond, input.yield, input.compounding);
  const head = `${num(input.maturity)}y ${pct(input.coupon, 3)} bond at ${pct(input.yield, 4)} (${input.compounding})`;
  const summary = `${head}: price ${num(r.price)} per 100; Macaulay duration ${num(r.macaulayDuration)}y, modified ${num(r.modifiedDuration)}; DV01 ${num(r.dv01, 5)} per 100 face; convexity ${num(r.convexity, 3)}.`;
  const body = [
    '## BOND RISK',
    table(
      ['measure', 'value'],
      [
        ['price (per 100)', num(r.price, 6)],
        ['Macaulay duration (years)', num(r.macaulayDuration, 6)],
        ['modified duration', num(r.modifiedDuration, 6)],
        ['DV01 (per 100 face, 1bp)', num(r.dv01, 6)],
        ['convexity', num(r.convexity, 6)],
      ],
    ),
  ].join('\n');
  return { label: `bond risk ${head}`, summary, body };
}
