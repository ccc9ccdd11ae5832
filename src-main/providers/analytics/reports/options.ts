import { num, pct, sig, table } from '../format';
import { analyseOption, type OptionRequest } from '../option-analysis';
import { payoffTable, type PayoffLeg } from '../options/payoff';
import type { Report } from './report';

function describe(req: OptionRequest): string {
  const model = req.model === 'bsm' ? 'BSM' : 'Black-76';
  const und = req.model === 'bsm' ? 'S' : 'F';
  const q = req.model === 'bsm' && req.dividendYield ? ` q=${pct(req.dividendYield, 2)}` : '';
  return `${model} ${req.type} ${und}=${num(req.underlying)} K=${num(req.strike)} T=${num(req.expiry)}y r=${pct(req.rate, 2)}${q}`;
}

export function optionReport(req: OptionRequest): Report {
  const a = analyseOption(req);
  const g = a.greeks;
  const head = describe(req);
  const volText = a.impliedVol
    ? `implied vol ${pct(a.vol, 4)} (solved in ${a.impliedVol.iterations} iterations to ${a.impliedVol.tolerance})`
    : `vol ${pct(a.vol, 2)}`;
  const summary =
    `${head}, ${volText}: price ${num(a.price)}; delta ${sig(g.delta)}, gamma ${sig(g.gamma)}, vega ${sig(g.vega / 100)} per vol point, ` +
    `theta ${sig(g.theta / 365)} per day, rho ${sig(g.rho / 10_000)} per bp${req.model === 'bsm' ? `, dividend rho ${sig(g.dividendRho / 10_000)} per bp of q` : ''}. No-arbitrage bounds ${num(a.bounds.lower)}–${num(a.bounds.upper)}.`;
  const body = [
    '## INPUTS',
    table(
      ['field', 'value'],
      [
        ['model', req.model === 'bsm' ? 'Black–Scholes–Merton (spot, continuous dividend yield)' : 'Black-76 (futures/forward price)'],
        ['type', req.type],
        [req.model === 'bsm' ? 'spot' : 'futures price', num(req.underlying, 6)],
        ['strike', num(req.strike, 6)],
        ['expiry (years)', num(req.expiry, 6)],
        ['rate (continuous)', pct(req.rate, 4)],
        ['dividend yield', req.model === 'bsm' ? pct(req.dividendYield ?? 0, 4) : '—'],
        [a.impliedVol ? 'market price' : 'volatility', a.impliedVol ? num(a.price, 6) : pct(a.vol, 4)],
      ],
    ),
    '',
    '## RESULT',
    table(
      ['measure', 'value', 'unit'],
      [
        ['price', num(a.price, 6), 'per unit of underlying'],
        ['volatility', pct(a.vol, 4), a.impliedVol ? `implied (${a.impliedVol.iterations} iterations, tolerance ${a.impliedVol.tolerance})` : 'given'],
        ['delta', num(g.delta, 6), '∂V/∂underlying'],
        ['gamma', num(g.gamma, 6), '∂²V/∂underlying²'],
        ['vega', num(g.vega, 6), 'per 1.00 of vol (÷100 per vol point)'],
        ['theta', num(g.theta, 6), 'per year (÷365 per day)'],
        ['rho', num(g.rho, 6), 'per 1.00 of rate (÷10,000 per bp)'],
        [
          'dividend rho',
          req.model === 'bsm' ? num(g.dividendRho, 6) : '—',
          req.model === 'bsm' ? '∂V/∂q per 1.00 of dividend yield (÷10,000 per bp)' : 'none: the futures price embeds any yield',
        ],
        ['d1 / d2', `${num(a.d1, 6)} / ${num(a.d2, 6)}`, ''],
        ['forward', num(a.forward, 6), req.model === 'bsm' ? 'S·e^{(r−q)T}' : 'F'],
        ['no-arbitrage bounds', `${num(a.bounds.lower, 6)} – ${num(a.bounds.upper, 6)}`, 'discounted intrinsic – discounted forward/strike'],
      ],
    ),
    ...(a.grid
      ? [
          '',
          `## VALUE ACROSS ${req.model === 'bsm' ? 'SPOT' : 'FUTURES PRICE'} (vol ${pct(a.vol, 4)})`,
          table(
            ['underlying', 'value', 'delta', 'gamma'],
            a.grid.map((p) => [num(p.underlying, 6), num(p.price, 6), num(p.delta, 6), num(p.gamma, 6)]),
          ),
        ]
      : []),
  ].join('\n');
  return { label: `${req.price !== undefined ? 'implied vol' : 'option price'} ${head}`, summary, body };
}

export function payoffReport(legs: PayoffLeg[], prices: number[] | undefined, multiplier: number | undefined): Report {
  const t = payoffTable(legs, prices, multiplier ?? 1);
  const legName = (l: PayoffLeg) => `${l.quantity > 0 ? '+' : ''}${num(l.quantity)} ${l.kind}${l.kind === 'underlying' ? ' @' : ' '}${num(l.strike)}`;
  const desc = legs.map(legName).join(', ');
  const extreme = (x: number | 'unbounded') => (x === 'unbounded' ? 'unbounded' : num(x));
  const summary =
    `Payoff at expiry of ${desc}: net premium ${num(t.netPremium)} (${t.netPremium >= 0 ? 'debit' : 'credit'}); ` +
    `max profit ${extreme(t.maxProfit)}, max loss ${extreme(t.maxLoss)}; breakevens ${t.breakevens.length ? t.breakevens.map((b) => num(b)).join(', ') : 'none'}.`;
  const body = [
    '## LEGS',
    table(
      ['leg', 'kind', 'strike', 'quantity', 'premium'],
      legs.map((l, i) => [i + 1, l.kind, num(l.strike), num(l.quantity), num(l.premium ?? 0)]),
    ),
    '',
    '## PAYOFF AT EXPIRY',
    table(
      ['underlying', ...legs.map((_, i) => `leg ${i + 1}`), 'total'],
      t.rows.map((r) => [num(r.price), ...r.legs.map((x) => num(x)), num(r.total)]),
    ),
    '',
    `max profit: ${extreme(t.maxProfit)}; max loss: ${extreme(t.maxLoss)}; breakevens: ${t.breakevens.map((b) => num(b)).join(', ') || 'none'}`,
  ].join('\n');
  return { label: `payoff ${desc}`, summary, body };
}
