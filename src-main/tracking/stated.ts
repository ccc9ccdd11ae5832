import type { ForgeFS, HeaderFields } from '../fs';

/** What was forecast: the confidence stated when the decision was taken, and the View's category. */
export interface StatedForecast {
  confidence: number | null;
  category: string | null;
  /** Where the confidence came from, for the record (`E-001`, `V-001 as of 2026-10-15T…`). */
  source: string | null;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);

export function probability(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
}

/** `Macro regime` → `macro_regime`; null when nothing usable is written. */
export function categoryName(v: unknown): string | null {
  const t = text(v)
    ?.toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return t ? t.slice(0, 64) : null;
}

/**
 * The forecast behind a trade. The record's own `confidence`/`category` win; otherwise its View's,
 * with the confidence the View stated at `at` (the View's archived versions say what it was then):
 * a View whose confidence was raised after the trade worked must not score the trade as if the
 * higher number had been stated before.
 */
export function statedForecast(fs: ForgeFS, header: HeaderFields, recordId: string, at: string | null): StatedForecast {
  const own = probability(header.confidence);
  let category = categoryName(header.category);
  const viewId = text(header.view_id ?? header.view);
  if (own !== null && category) return { confidence: own, category, source: recordId };
  if (!viewId || !/^V-\d+$/.test(viewId)) return { confidence: own, category, source: own !== null ? recordId : null };
  const path = `/memory/views/${viewId}.md`;
  const current = fs.recordInfo(path);
  category ??= current ? categoryName(current.header.category) : null;
  if (own !== null) return { confidence: own, category, source: recordId };
  if (!current) return { confidence: null, category, source: null };
  let confidence = probability(current.confidence);
  if (at) {
    // Versions newest first; the one live at `at` is the earliest archived after `at`.
    const versions = fs.history(path).versions;
    for (let i = versions.length - 1; i >= 0; i--) {
      const v = versions[i]!;
      if (v.archivedAt > at) {
        confidence = probability(v.confidence);
        break;
      }
    }
  }
  return { confidence, category, source: `${viewId}${at ? ` as of ${at}` : ''}` };
}
