import { useRef, useState } from 'react';
import { PlainView } from '../skills/CodeViewer';
import { useMonacoDiff } from '../skills/use-monaco-diff';

/**
 * The target file before and after the proposed edit in Monaco's diff editor, side by side or
 * inline (the PM's choice: inline reads better in a narrow window), read-only: the PM approves or
 * rejects, never edits here. If Monaco cannot load, the two texts are shown side by side as plain
 * numbered text, so the decision can still be made.
 */
export function DiffViewer(props: {
  original: string;
  modified: string;
  language: string;
  label: string;
  /** Fit the height to about this many screen rows (a short passage), instead of the full-file height. */
  rows?: number;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [sideBySide, setSideBySide] = useState(true);
  const { engine, failure } = useMonacoDiff(host, {
    original: props.original,
    modified: props.modified,
    language: props.language,
    ariaLabel: props.label,
    originalAriaLabel: `${props.label}: the file now`,
    modifiedAriaLabel: `${props.label}: as proposed`,
    sideBySide,
    readOnlyMessage: 'Read-only: approve or reject the proposal; a skill is never edited by hand here.',
    revealFirstChange: true,
  });

  return (
    <div
      className="diff-viewer"
      data-testid="proposal-diff"
      data-engine={engine}
      data-layout={sideBySide ? 'side-by-side' : 'inline'}
      style={props.rows ? { height: `min(55vh, ${props.rows * 19 + 44}px)` } : undefined}
    >
      <div className="diff-viewer-bar">
        {sideBySide || engine === 'plain' ? (
          <div className="diff-viewer-heads" aria-hidden="true">
            <span>Now</span>
            <span>As proposed</span>
          </div>
        ) : (
          <div className="diff-viewer-heads is-inline" aria-hidden="true">
            <span>Removed lines in red, added lines in green</span>
          </div>
        )}
        {engine === 'monaco' && (
          <fieldset className="diff-viewer-layout" aria-label="Diff layout">
            <button type="button" className="chip" aria-pressed={sideBySide} data-testid="diff-side-by-side" onClick={() => setSideBySide(true)}>
              Side by side
            </button>
            <button type="button" className="chip" aria-pressed={!sideBySide} data-testid="diff-inline" onClick={() => setSideBySide(false)}>
              Inline
            </button>
          </fieldset>
        )}
      </div>
      {engine !== 'plain' && <div className="diff-viewer-monaco" ref={host} aria-busy={engine === 'loading'} />}
      {engine === 'loading' && <p className="diff-viewer-loading muted">Opening the diff…</p>}
      {engine === 'plain' && (
        <div className="diff-viewer-plain">
          <PlainView text={props.original} path={`${props.label} (now)`} note={failure} />
          <PlainView text={props.modified} path={`${props.label} (as proposed)`} note={null} />
        </div>
      )}
    </div>
  );
}
