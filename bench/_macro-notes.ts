/**
 * Short, realistic macro notes for the search benchmark, generated from templates over rates, FX,
 * commodities, EM, credit, positioning and data releases. Deterministic for a given seed.
 */
export function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const num = (r: () => number, lo: number, hi: number, dp = 0) => (lo + r() * (hi - lo)).toFixed(dp);

const CB = ['Fed', 'ECB', 'BoE', 'BoJ', 'SNB', 'RBA', 'BoC', 'Riksbank', 'Norges Bank', 'Banxico', 'BCB', 'RBI'];
const CURVES = ['2s10s', '5s30s', '2s5s', '10s30s', '1y1y vs 5y5y'];
const MARKETS = ['UST', 'Bund', 'Gilt', 'JGB', 'OAT', 'BTP', 'ACGB', 'Canada'];
const FX = ['EURUSD', 'USDJPY', 'GBPUSD', 'AUDUSD', 'USDCAD', 'USDCHF', 'USDMXN', 'USDBRL', 'USDZAR', 'USDCNH', 'EURCHF', 'USDINR', 'USDKRW', 'NZDUSD'];
const COMMOD = ['Brent', 'WTI', 'copper', 'gold', 'silver', 'iron ore', 'TTF gas', 'Henry Hub', 'soybeans', 'wheat', 'aluminium'];
const EM = ['Mexico', 'Brazil', 'South Africa', 'Turkey', 'India', 'Indonesia', 'Poland', 'Hungary', 'Chile', 'Colombia', 'Korea', 'China'];
const DATA = [
  'payrolls',
  'CPI',
  'core PCE',
  'retail sales',
  'ISM manufacturing',
  'ISM services',
  'jobless claims',
  'GDP',
  'PMI',
  'wage growth',
  'housing starts',
  'JOLTS openings',
  'Tankan',
  'Ifo',
  'ZEW',
];
const CREDIT = ['IG', 'HY', 'CDX IG', 'iTraxx Main', 'iTraxx Crossover', 'EM sovereign', 'leveraged loans', 'CCC'];
const FLOWS = ['CTA', 'real money', 'leveraged funds', 'asset managers', 'dealers', 'retail', 'pension funds', 'Japanese lifers'];
const SKILLS = ['sizing', 'entry timing', 'risk management', 'catalyst mapping', 'scenario analysis', 'position review'];

const templates: ((r: () => number) => { title: string; body: string })[] = [
  (r) => {
    const cb = pick(r, CB);
    return {
      title: `${cb} ${pick(r, ['leans dovish', 'sounds hawkish', 'holds steady', 'signals patience', 'opens the door to cuts'])}`,
      body: `${cb} speakers ${pick(r, ['pushed back on', 'leaned into', 'ignored'])} market pricing of ${num(r, 1, 6)} cuts; front-end ${pick(r, ['rallied', 'sold off', 'was flat'])} ${num(r, 2, 18)}bp. Watch ${pick(r, DATA)} next.`,
    };
  },
  (r) => {
    const c = pick(r, CURVES),
      m = pick(r, MARKETS);
    return {
      title: `${m} ${c} ${pick(r, ['steepener', 'flattener'])}`,
      body: `${m} ${c} ${pick(r, ['steepened', 'flattened'])} ${num(r, 2, 15)}bp on ${pick(r, ['supply', 'term premium', 'cut pricing', 'a hawkish surprise', 'risk-off flows'])}. Carry ${pick(r, ['positive', 'negative', 'flat'])}; roll-down ${num(r, 1, 9)}bp over 3m.`,
    };
  },
  (r) => {
    const p = pick(r, FX);
    return {
      title: `${p} ${pick(r, ['breaks higher', 'breaks lower', 'range trade', 'vol bid', 'carry unwind'])}`,
      body: `${p} moved ${num(r, 0.3, 2.5, 1)}% on ${pick(r, ['rate differentials', 'intervention risk', 'risk sentiment', 'terms of trade', 'positioning squeeze'])}. 1m implied vol ${num(r, 5, 18, 1)}; risk reversals ${pick(r, ['favour calls', 'favour puts', 'flat'])}.`,
    };
  },
  (r) => {
    const c = pick(r, COMMOD);
    return {
      title: `${c} ${pick(r, ['supply shock', 'demand scare', 'backwardation widening', 'contango deepening', 'inventory draw'])}`,
      body: `${c} ${pick(r, ['up', 'down'])} ${num(r, 1, 9, 1)}% this week; ${pick(r, ['inventories fell', 'inventories rose', 'spreads tightened', 'OPEC headlines', 'China imports jumped', 'weather risk rose'])}. Curve ${pick(r, ['in backwardation', 'in contango'])}.`,
    };
  },
  (r) => {
    const e = pick(r, EM);
    return {
      title: `${e} ${pick(r, ['local rates', 'FX carry', 'sovereign spreads', 'inflation surprise', 'fiscal slippage'])}`,
      body: `${e}: ${pick(r, ['inflation printed above consensus', 'the central bank cut by 50bp', 'fiscal numbers disappointed', 'foreign inflows picked up', 'election risk is rising'])}. Local curve ${pick(r, ['bull steepened', 'bear flattened', 'was unchanged'])}; carry still ${num(r, 2, 9, 1)}% annualised.`,
    };
  },
  (r) => {
    const c = pick(r, CREDIT);
    return {
      title: `${c} spreads ${pick(r, ['widen', 'tighten', 'diverge from equities', 'hit tights'])}`,
      body: `${c} ${pick(r, ['widened', 'tightened'])} ${num(r, 3, 40)}bp as ${pick(r, ['issuance surged', 'defaults ticked up', 'fund outflows continued', 'equity vol fell', 'downgrades clustered in autos'])}. Dispersion ${pick(r, ['rising', 'falling'])}.`,
    };
  },
  (r) => {
    const f = pick(r, FLOWS);
    return {
      title: `Positioning: ${f} ${pick(r, ['max long', 'max short', 'covering', 'adding'])} ${pick(r, ['duration', 'USD', 'oil', 'equities', 'JPY', 'gold'])}`,
      body: `${f} positioning looks ${pick(r, ['stretched', 'light', 'crowded', 'neutral'])} per ${pick(r, ['CFTC data', 'the flow desk', 'the BofA survey', 'prime broker data'])}. Asymmetry ${pick(r, ['favours fading', 'favours joining'])} the move.`,
    };
  },
  (r) => {
    const d = pick(r, DATA);
    return {
      title: `${d} ${pick(r, ['beat', 'miss', 'in line', 'revised down', 'revised up'])}`,
      body: `${d} came in at ${num(r, -1, 5, 1)} vs ${num(r, -1, 5, 1)} expected; prior revised ${pick(r, ['up', 'down'])}. Market reaction: 2y ${pick(r, ['+', '-'])}${num(r, 1, 12)}bp, USD ${pick(r, ['firmer', 'softer'])}.`,
    };
  },
  (r) => {
    const s = pick(r, SKILLS);
    return {
      title: `Lesson on ${s}`,
      body: `PK: when ${pick(r, ['a catalyst is binary', 'vol is cheap', 'positioning is crowded', 'the view is early', 'liquidity is thin'])}, ${pick(r, ['size at half risk', 'wait for confirmation', 'use options not cash', 'set the stop beyond the range', 'stage the entry'])}. Learned from ${pick(r, FX.concat(COMMOD))} in ${2020 + Math.floor(r() * 7)}.`,
    };
  },
];

export type BenchCategory = 'observations' | 'views' | 'pk' | 'expressions' | 'linkages' | 'outcomes';
const CATS: [BenchCategory, number][] = [
  ['observations', 0.5],
  ['views', 0.15],
  ['pk', 0.15],
  ['expressions', 0.1],
  ['linkages', 0.05],
  ['outcomes', 0.05],
];

export interface BenchNote {
  category: BenchCategory;
  title: string;
  body: string;
  status: string;
  daysAgo: number;
}

export function makeNote(r: () => number): BenchNote {
  const { title, body } = pick(r, templates)(r);
  let x = r(),
    category: BenchCategory = 'observations';
  for (const [c, p] of CATS) {
    x -= p;
    if (x < 0) {
      category = c;
      break;
    }
  }
  const status = pick(r, ['active', 'active', 'active', 'closed', 'archived', 'monitoring']);
  return { category, title, body, status, daysAgo: Math.floor(r() * 1500) };
}

/** Queries a PM might type, drawn from the same vocabulary but phrased differently from notes. */
export function makeQuery(r: () => number): string {
  return pick(r, [
    () => `${pick(r, CB)} dovish cuts front-end`,
    () => `${pick(r, MARKETS)} curve ${pick(r, ['steepener', 'flattener'])} term premium`,
    () => `${pick(r, FX)} carry unwind vol`,
    () => `${pick(r, COMMOD)} inventories backwardation`,
    () => `${pick(r, EM)} local rates inflation surprise`,
    () => `${pick(r, CREDIT)} spreads widening defaults`,
    () => `${pick(r, FLOWS)} positioning crowded`,
    () => `${pick(r, DATA)} miss market reaction`,
    () => `lessons ${pick(r, SKILLS)} crowded positioning`,
  ])();
}
