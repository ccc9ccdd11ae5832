import { type ForgeFS, type HeaderFields, parseRecord, renderRecord, trackerWriter, type WriteContext } from '../fs';
import { type Calibration, type CategoryCalibration, computeCalibration } from './calibration';
import { CALIBRATION_CATEGORIES } from './settings';

const NAME = /^[a-z0-9_]{1,64}$/;
const pts = (x: number) => `${x > 0 ? '+' : ''}${Math.round(x * 100)}`;

function summary(c: CategoryCalibration | undefined, minBandCount: number): string {
  const generated = 'Generated from the resolved Outcomes and Counterfactuals; do not edit — it is rewritten whenever they change.';
  if (!c) return `No resolved forecasts in this category yet. ${generated}`;
  const lean =
    Math.abs(c.bias) < 0.005
      ? 'matches realised hit rates'
      : c.bias > 0
        ? `runs ${pts(c.bias)} pts above realised hit rates (overconfident)`
        : `runs ${pts(-c.bias)} pts below realised hit rates (underconfident)`;
  const quoted = c.bands.filter((b) => b.n >= minBandCount);
  const worst = quoted.reduce<(typeof quoted)[number] | null>((w, b) => (!w || Math.abs(b.bias) > Math.abs(w.bias) ? b : w), null);
  const worstLine = worst ? ` Worst band: ${worst.band}, bias ${pts(worst.bias)} pts (n=${worst.n}).` : ` No band has ${minBandCount} forecasts yet.`;
  return `${c.n} resolved (${c.n - c.counterfactuals} Outcomes, ${c.counterfactuals} Counterfactuals). Stated confidence ${lean}; Brier ${c.brier.toFixed(3)}.${worstLine} ${generated}`;
}

function document(category: string, c: CategoryCalibration | undefined, minBandCount: number): string {
  const header: HeaderFields = { category, generated: 'true', resolved: c?.n ?? 0 };
  if (c) {
    header.brier = c.brier;
    header.bias = c.bias;
    header.stated = c.stated;
    header.hit_rate = c.realised;
    if (c.asOf) header.as_of = c.asOf;
  }
  header.source = 'computed';
  const rows = (c?.bands ?? []).map(
    (b) => `| ${b.band} | ${b.n} | ${b.counterfactuals} | ${b.stated.toFixed(2)} | ${b.realised.toFixed(2)} | ${pts(b.bias)} | ${b.brier.toFixed(3)} |`,
  );
  return renderRecord({
    id: category,
    title: `Calibration of ${category.replace(/_/g, ' ')} forecasts`,
    header,
    body: [
      '## SUMMARY',
      summary(c, minBandCount),
      '',
      '## BANDS',
      '| confidence band | resolved | of which Counterfactuals | stated | hit rate | bias (pts) | Brier |',
      '|---|---|---|---|---|---|---|',
      ...(rows.length ? rows : ['| — | 0 | 0 | — | — | — | — |']),
      '',
      `Hit rate = share of forecasts whose trade made money. Bias = stated − hit rate, in points (positive: overconfident). Brier = mean of (p − outcome)²: 0 is perfect, 0.25 is always saying 0.5. A band is quoted from ${minBandCount} forecasts.`,
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
