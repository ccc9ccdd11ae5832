import { type ForgeFS, type HeaderFields, parseRecord, renderRecord, trackerWriter, type WriteContext } from '../fs';
import { type Calibration, type CategoryCalibration, computeCalibration } from './calibration';
import { CALIBRATION_CATEGORIES } from './settings';

const NAME = /^[a-z0-9_]{1,64}$/;
const pts = (x: number) => `${x > 0 ? '+' : ''}${Math.round(x * 100)}`;
const f3 = (x: number) => x.toFixed(3);
const iv = (i: { lo: number; hi: number } | null) => (i ? `${pts(i.lo)} to ${pts(i.hi)}` : '—');

/** The words come from calibrationVerdict (calibration-words.ts): the same sentence the screen, the prompt and the reviewer use. */
function summary(c: CategoryCalibration | undefined): string {
  const generated = 'Generated from the resolved Outcomes and Counterfactuals; do not edit — it is rewritten whenever they change.';
  if (!c) return `No resolved forecasts in this category yet. ${generated}`;
  const words = c.verdict.text.charAt(0).toUpperCase() + c.verdict.text.slice(1);
  return `${c.n} resolved (${c.n - c.counterfactuals} Outcomes, ${c.counterfactuals} Counterfactuals). ${words}. Brier ${f3(c.brier)}. ${generated}`;
}

function decompositionLines(c: CategoryCalibration | undefined): string[] {
  const d = c?.decomposition;
  const fit = c?.recalibration;
  if (!d) return [];
  const row = (name: string, x: number, i: { lo: number; hi: number }) => `| ${name} | ${f3(x)} | ${f3(i.lo)} to ${f3(i.hi)} |`;
  return [
    '## DECOMPOSITION',
    '| figure | value | 95% interval |',
    '|---|---|---|',
    row('Brier', d.brier, d.intervals.brier),
    row('reliability (lower is better)', d.reliability, d.intervals.reliability),
    row('resolution (higher is better)', d.resolution, d.intervals.resolution),
    row('uncertainty (base rate)', d.uncertainty, d.intervals.uncertainty),
    ...(fit
      ? [
          `| calibration slope (1 = calibrated, 0 = no skill) | ${fit.slope.toFixed(2)} | ${fit.slopeInterval.lo.toFixed(2)} to ${fit.slopeInterval.hi.toFixed(2)} |`,
          `| calibration intercept (0 = no lean) | ${fit.intercept.toFixed(2)} | ${fit.interceptInterval.lo.toFixed(2)} to ${fit.interceptInterval.hi.toFixed(2)} |`,
        ]
      : []),
    '',
    `Brier = reliability − resolution + uncertainty + within-bin term (${f3(d.withinBin)}). Intervals: bootstrap 95%.`,
    '',
  ];
}

function document(category: string, c: CategoryCalibration | undefined, minBandCount: number): string {
  const header: HeaderFields = { category, generated: 'true', resolved: c?.n ?? 0 };
  if (c) {
    header.brier = c.brier;
    header.bias = c.bias;
    header.stated = c.stated;
    header.hit_rate = c.realised;
    header.verdict = c.verdict.kind;
    if (c.recalibration) header.slope = c.recalibration.slope;
    if (c.asOf) header.as_of = c.asOf;
  }
  header.source = 'computed';
  const rows = (c?.bands ?? []).map(
    (b) =>
      `| ${b.band} | ${b.n}${b.sparse ? ' (too few)' : ''} | ${b.counterfactuals} | ${b.stated.toFixed(2)} | ${b.realised.toFixed(2)} | ${pts(b.bias)} | ${iv(b.biasInterval)} | ${b.brier.toFixed(3)} |`,
  );
  return renderRecord({
    id: category,
    title: `Calibration of ${category.replace(/_/g, ' ')} forecasts`,
    header,
    body: [
      '## SUMMARY',
      summary(c),
      '',
      ...decompositionLines(c),
      '## BANDS',
      '| confidence band | resolved | of which Counterfactuals | stated | hit rate | bias (pts) | bias 95% (pts) | Brier |',
      '|---|---|---|---|---|---|---|---|',
      ...(rows.length ? rows : ['| — | 0 | 0 | — | — | — | — | — |']),
      '',
      `Hit rate = share of forecasts whose trade made money. Bias = stated − hit rate, in points: above 0.5 positive is overconfident; below 0.5 negative is too extreme toward No. A band is judged only from ${minBandCount} forecasts and only when its interval excludes 0. Brier = mean of (p − outcome)²: 0 is perfect, 0.25 is always saying 0.5.`,
      '',
    ].join('\n'),
  });
}

/**
 * Rewrites `/memory/calibration/<category>.md` from the data: the six seed categories always, plus
 * any other category that has resolved forecasts. A file whose figures did not change is not
 * rewritten (no hourly audit noise). Returns what was written.
 */
export async function regenerateCalibrationFiles(
  fs: ForgeFS,
  options: { writer?: WriteContext; minBandCount?: number; calibration?: Calibration } = {},
): Promise<{ written: string[]; unchanged: string[]; calibration: Calibration }> {
  const calibration = options.calibration ?? computeCalibration(fs.store, { minBandCount: options.minBandCount });
  // Only the tracker's writer may write calibration files (fs/write-authority.ts).
  const writer = options.writer ?? trackerWriter();
  const byName = new Map(calibration.categories.map((c) => [c.category, c]));
  const names = [...new Set([...CALIBRATION_CATEGORIES, ...byName.keys()])].filter((n) => NAME.test(n));
  const planned = names.map((name) => ({ path: `/memory/calibration/${name}.md`, content: document(name, byName.get(name), calibration.minBandCount) }));
  const same = (path: string, content: string) => fs.exists(path) && sameRecord(fs.readFile(path), content);
  // Only changed files are announced: the search indexer embeds what a transaction will write.
  const changed = planned.filter((p) => !same(p.path, p.content));
  const unchanged = planned.filter((p) => !changed.includes(p)).map((p) => p.path);
  const written: string[] = [];
  if (changed.length) {
    await fs.transaction(
      (tx) => {
        for (const p of changed) {
          tx.writeFile(p.path, p.content, writer);
          written.push(p.path);
        }
      },
      { prepare: changed },
    );
  }
  return { written, unchanged, calibration };
}

function sameRecord(a: string, b: string): boolean {
  try {
    return renderRecord(parseRecord(a)) === renderRecord(parseRecord(b));
  } catch {
    return false;
  }
}
