/**
 * A second generated corpus for the search benchmark, unlike `_macro-notes`: longer notes written
 * the way a PM actually keeps them, where one note crosses two or three themes and the same words
 * ("carry", "positioning", "inflation", "curve", "risk-off", "stop") recur in every theme. Nearest
 * neighbours are then close together and spread across categories — the hard case for candidate
 * pruning that one-topic template notes hide. Deterministic for a given seed.
 */
import type { BenchCategory, BenchNote } from './_macro-notes';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const num = (r: () => number, lo: number, hi: number, dp = 0) => (lo + r() * (hi - lo)).toFixed(dp);

const THEMES = {
  rates: ['front-end', 'terminal rate', 'curve', 'term premium', 'duration', 'swap spreads', 'real yields', 'breakevens', 'auction tail', 'QT runoff'],
  fx: ['dollar', 'yen', 'euro', 'sterling', 'Aussie', 'peso', 'rand', 'won', 'yuan fixing', 'franc'],
  commodities: ['crude', 'copper', 'gold', 'gas', 'grains', 'inventories', 'OPEC quotas', 'refinery margins', 'backwardation', 'contango'],
  em: [
    'local rates',
    'sovereign spreads',
    'current account',
    'reserves',
    'elections',
    'IMF programme',
    'capital flows',
    'carry basket',
    'devaluation',
    'hiking cycle',
  ],
  credit: [
    'IG spreads',
    'high yield',
    'defaults',
    'new issue concessions',
    'CDS basis',
    'fallen angels',
    'maturity wall',
    'leverage',
    'recovery rates',
    'CLO demand',
  ],
  equities: [
    'earnings revisions',
    'buybacks',
    'index concentration',
    'vol selling',
    'dispersion',
    'margins',
    'small caps',
    'cyclicals',
    'defensives',
    'multiples',
  ],
} as const;
type Theme = keyof typeof THEMES;
const THEME_NAMES = Object.keys(THEMES) as Theme[];

/** Words every theme uses: what makes neighbours cross topics. */
const SHARED = [
  'carry',
  'positioning',
  'inflation',
  'growth scare',
  'risk-off',
  'liquidity',
  'volatility',
  'stop loss',
  'catalyst',
  'crowded',
  'policy pivot',
  'recession odds',
  'soft landing',
  'fiscal slippage',
  'supply',
  'tail hedge',
];
const VERBS = ['is driving', 'is fading against', 'now dominates', 'keeps capping', 'has started to lift', 'is the swing factor for', 'decouples from'];
const ACTIONS = [
  'add on dips',
  'cut to half size',
  'roll the hedge',
  'take profit into strength',
  'wait for the print',
  'switch to options',
  'keep the stop tight',
];
const LINKS = ['Meanwhile', 'Separately', 'The read-across', 'Against that', 'Worth noting', 'Cross-check'];

function sentence(r: () => number, theme: Theme): string {
  const a = pick(r, THEMES[theme]);
  const b = pick(r, SHARED);
  return pick(r, [
    () => `${cap(b)} ${pick(r, VERBS)} ${a}; ${pick(r, THEMES[theme])} moved ${num(r, 1, 40)}bp in ${num(r, 2, 15)} sessions.`,
    () =>
      `${cap(a)} looks ${pick(r, ['rich', 'cheap', 'stretched', 'fair'])} given ${b}, and ${pick(r, SHARED)} argues ${pick(r, ['patience', 'conviction', 'caution'])}.`,
    () => `On ${a}: ${pick(r, ACTIONS)} if ${b} ${pick(r, ['persists', 'reverses', 'spreads to ' + pick(r, THEMES[pick(r, THEME_NAMES)])])}.`,
    () =>
      `${pick(r, LINKS)}, ${b} and ${pick(r, SHARED)} both point at ${a} ${pick(r, ['underperforming', 'outperforming', 'going nowhere'])} into quarter-end.`,
  ])();
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const CATS: [BenchCategory, number][] = [
  ['observations', 0.45],
  ['views', 0.2],
  ['pk', 0.15],
  ['expressions', 0.1],
  ['outcomes', 0.05],
  ['linkages', 0.05],
];

export function makePmNote(r: () => number): BenchNote {
  const main = pick(r, THEME_NAMES);
  const themes = [main, pick(r, THEME_NAMES), ...(r() < 0.4 ? [pick(r, THEME_NAMES)] : [])];
  const n = 3 + Math.floor(r() * 4);
  const body = Array.from({ length: n }, (_, i) => sentence(r, themes[i % themes.length])).join(' ');
  const title = `${cap(pick(r, THEMES[main]))} ${pick(r, ['vs', 'and', 'through', 'after'])} ${pick(r, SHARED)}`;
  let x = r();
  let category: BenchCategory = 'observations';
  for (const [c, p] of CATS) {
    x -= p;
    if (x < 0) {
      category = c;
      break;
    }
  }
  const status = pick(r, ['active', 'active', 'monitoring', 'closed', 'archived']);
  return { category, title, body, status, daysAgo: Math.floor(r() * 2500) };
}

/** Two to six words, mixing a theme's words with the shared ones, as a PM types them. */
export function makePmQuery(r: () => number): string {
  const t = pick(r, THEME_NAMES);
  const words = [pick(r, THEMES[t]), pick(r, SHARED), ...(r() < 0.5 ? [pick(r, THEMES[pick(r, THEME_NAMES)])] : []), ...(r() < 0.3 ? [pick(r, ACTIONS)] : [])];
  return words.join(' ').split(' ').slice(0, 6).join(' ');
}
