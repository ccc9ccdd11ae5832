import type { ForgeFS } from '../fs';
import { computeCalibration, summaryLineOf } from '../tracking';
import { defaultGuardrailLimits, readBook, type GuardrailLimits } from '../guardrails';
import type { WorkspaceSnapshot } from './prompt';

const TOP_PK = 3;

/** The workspace part of the system prompt, read from memory (seed §6 `_build_system_prompt`). */
export function workspaceSnapshot(fs: ForgeFS, skillCatalog: string, limits?: GuardrailLimits): WorkspaceSnapshot {
  // The computed book, not the snapshot's prose: what the guardrails will check a proposal against.
  let portfolio = '';
  try {
    const book = readBook(fs, limits ?? defaultGuardrailLimits);
    const top = Object.entries(book.factors)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6);
    portfolio =
      `Book (computed; /portfolio/book.md): gross ${book.gross}% NAV, net ${book.net}%, duration ${book.duration}y, ${book.open.length} open.` +
      (top.length ? `\nBy factor (gross % NAV): ${top.map(([f, v]) => `${f} ${v}`).join(', ')}.` : '');
  } catch (e) {
    portfolio = `The positions snapshot cannot be read (${(e as Error).message}); no new Expression can be sized until the PM fixes it.`;
  }
  if (limits) {
    portfolio += `\n\nHARD LIMITS (checked at write and at approval): max_loss_pct ≤ ${limits.maxSingleRisk}% NAV; gross incl. the trade ≤ ${limits.maxGross}% NAV; |duration_impact| ≤ ${limits.maxDuration}; one factor ≤ ${limits.maxFactorConcentration}% of gross.`;
  }
  const views = fs.listDir('/memory/views/', 'status:active', { limit: 200 }).entries.sort((a, b) => (a.id ?? '').localeCompare(b.id ?? ''));
  const viewIndex = views.map((v) => `${v.id}(${(v.meta.split('|')[0] ?? '').trim() || '?'})`);
  const pk = fs
    .listDir('/memory/pk/', 'weight>=0.4', { limit: 500 })
    .entries.map((e) => ({ e, w: Number(/w:([\d.]+)/.exec(e.meta)?.[1] ?? 0) }))
    .sort((a, b) => b.w - a.w)
    .slice(0, TOP_PK)
    .map(({ e, w }) => `${e.id} (w ${w}): ${e.title}`);
  return { portfolio, viewIndex, skillCatalog, topPk: pk, calibration: computedCalibration(fs) };
}

/**
 * Calibration in the words its numbers allow (tracking's calibrationVerdict: intervals, slope and
 * a minimum per band), computed from resolved Outcomes and completed Counterfactuals. Until
 * anything is resolved it says so: the seed files' figures carry no intervals, so no band of
 * theirs is quoted as a finding.
 */
export function computedCalibration(fs: ForgeFS): string {
  return summaryLineOf(computeCalibration(fs.store));
}

/**
 * The calibration band whose hit rate is furthest from the confidence it was stated at, read
 * from the `| band | n | hit rate |` tables of /memory/calibration/*.md.
 */
export function worstCalibration(fs: ForgeFS): string {
  let worst: { name: string; band: string; hit: number; bias: number } | null = null;
  for (const e of fs.listDir('/memory/calibration/', undefined, { limit: 100 }).entries) {
    if (e.isDir) continue;
    const text = fs.readFile(e.path);
    for (const m of text.matchAll(/^\|\s*([01](?:\.\d+)?)\s*-\s*([01](?:\.\d+)?)\s*\|\s*(\d+)\s*\|\s*([01](?:\.\d+)?)\s*\|/gm)) {
      const lo = Number(m[1]);
      const hi = Number(m[2]);
      const hit = Number(m[4]);
      if (Number(m[3]) < 3) continue; // too few resolved Views to mean anything
      const bias = hit - (lo + hi) / 2;
      if (!worst || Math.abs(bias) > Math.abs(worst.bias)) worst = { name: e.name.replace(/\.md$/, ''), band: `${m[1]}-${m[2]}`, hit, bias };
    }
  }
  if (!worst) return 'Not enough resolved outcomes yet.';
  const sign = worst.bias >= 0 ? '+' : '';
  return `${worst.name} ${worst.band} band: ${Math.round(worst.hit * 100)}% came true (bias ${sign}${worst.bias.toFixed(2)}).`;
}
