import { useEffect, useState } from 'react';
import type { SpecInspection } from '../../src-main/api/builds';
import { useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';

/** A full path on any OS the app runs on; a half-typed relative one is not worth asking about. */
export const isFullPath = (dir: string): boolean => /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(dir.trim());

/** The value once it has stopped changing for `ms` (so typing a path does not read every prefix of it). */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * Format detection on the start form: as soon as a folder's full path is entered, what Forge
 * will read there (builds/inspect) — so a PM sees that their spec-kit feature was found with its
 * phases 3.1, 3.2 …, or that nothing was, before a model runs.
 */
export function SpecFormatPanel(props: { dir: string; feature?: string; onFeature?: (feature: string) => void }) {
  const dir = useSettled(props.dir.trim(), 400);
  const enabled = isFullPath(dir);
  const feature = props.feature?.trim() ?? '';
  const q = useProcedure('builds/inspect', feature ? { dir, feature } : { dir }, {
    enabled,
    retry: false,
    staleTime: 10_000,
    // While another feature of the same folder is read, keep showing the last one (the chooser stays put).
    placeholderData: (previous) => (previous && sameDir(previous.dir, dir) ? previous : undefined),
  });
  if (!enabled || dir !== props.dir.trim()) return null;
  if (q.error) return <ErrorPanel error={q.error} inline testId="build-inspect-error" />;
  if (!q.data)
    return (
      <p className="hint" data-testid="build-inspect-loading">
        Reading the specs in this folder…
      </p>
    );
  return <SpecInspectionView inspection={q.data} chosen={feature} onFeature={props.onFeature} />;
}

/** The inspected folder is the one typed (the core answers with the resolved path, without a trailing slash). */
const sameDir = (a: string, b: string): boolean => a.replace(/[\\/]+$/, '') === b.replace(/[\\/]+$/, '');

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

export function SpecInspectionView({
  inspection: r,
  chosen,
  onFeature,
}: {
  inspection: SpecInspection;
  /** The feature picked in the chooser ('' = inspect's own pick), shown at once while its reading loads. */
  chosen?: string;
  onFeature?: (feature: string) => void;
}) {
  const others = r.features.filter((f) => f !== r.feature);
  const what = r.format === 'openspec' ? 'change' : 'feature';
  // A folder with several features or changes: the PM picks the one to build (inspect's pick first).
  const chooser = onFeature && r.feature && r.features.length > 1;
  return (
    <section className="builds-inspect" aria-label="What Forge found in this folder" data-testid="build-inspect">
      <p>
        <strong>Format: {r.format}</strong>
        {r.feature && (
          <>
            {' '}
            — {r.format === 'openspec' ? 'change' : 'feature'} <code>{r.feature}</code>
          </>
        )}
      </p>
      {r.why && <p className="hint">{r.why}</p>}
      {chooser ? (
        <div className="field">
          <label htmlFor="build-feature">{what === 'change' ? 'Change to build' : 'Feature to build'}</label>
          <select id="build-feature" data-testid="build-feature" value={chosen || (r.feature ?? '')} onChange={(e) => onFeature(e.target.value)}>
            {r.features.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
      ) : (
        others.length > 0 && <p className="hint">Also in this folder: {others.join(', ')}.</p>
      )}
      <details>
        <summary>
          {plural(r.documents.length, 'document')}, {plural(r.totalTokens, 'token')}
        </summary>
        <ul data-testid="build-inspect-documents">
          {r.documents.map((d) => (
            <li key={d.id}>
              <code>{d.id}</code> — {d.title} ({d.kind}, {plural(d.tokens, 'token')})
            </li>
          ))}
        </ul>
      </details>
      {r.phases.length === 0 ? (
        <p className="field-error" data-testid="build-inspect-no-phases">
          No phases found: a build needs a phased plan (tasks.md, PLAN.md, phases.md …).
        </p>
      ) : (
        <ol className="builds-inspect-phases" data-testid="build-inspect-phases">
          {r.phases.map((p) => (
            <li key={p.id}>
              Phase {p.id}
              {p.name ? ` — ${p.name}` : ''}: {plural(p.tasks, 'task')}
            </li>
          ))}
        </ol>
      )}
      {r.preambleLines > 0 && <p className="hint">{plural(r.preambleLines, 'line')} before the first phase are carried with every phase.</p>}
      {r.notUnderstood.length > 0 && (
        <div data-testid="build-inspect-not-understood">
          <p>Not understood:</p>
          <ul>
            {r.notUnderstood.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
