import { useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api';
import { PlainView } from '../skills/CodeViewer';
import { currentTheme, followAppTheme, loadMonaco } from '../skills/monaco-loader';

type Engine = 'loading' | 'monaco' | 'plain';

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
  const editor = useRef<Monaco.editor.IStandaloneDiffEditor | null>(null);
  const models = useRef<{ original: Monaco.editor.ITextModel; modified: Monaco.editor.ITextModel } | null>(null);
  const [engine, setEngine] = useState<Engine>('loading');
  const [failure, setFailure] = useState<string | null>(null);
  const [sideBySide, setSideBySide] = useState(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; the effect below follows later texts.
  useEffect(() => {
    let disposed = false;
    let stopTheme: (() => void) | null = null;
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return;
        const mono = getComputedStyle(document.documentElement).getPropertyValue('--font-mono').trim();
        const diff = monaco.editor.createDiffEditor(host.current, {
          theme: currentTheme(),
          readOnly: true,
          domReadOnly: true,
          originalEditable: false,
          readOnlyMessage: { value: 'Read-only: approve or reject the proposal; a skill is never edited by hand here.' },
          renderSideBySide: sideBySide,
          // Keep two columns even in a narrow window: the PM compares before and after.
          useInlineViewWhenSpaceIsLimited: false,
          automaticLayout: true,
          minimap: { enabled: false },
          wordWrap: 'on',
          diffWordWrap: 'on',
          scrollBeyondLastLine: false,
          renderOverviewRuler: false,
          fontSize: 13,
          ...(mono ? { fontFamily: mono } : {}),
          ariaLabel: props.label,
          originalAriaLabel: `${props.label}: the file now`,
          modifiedAriaLabel: `${props.label}: as proposed`,
        });
        models.current = {
          original: monaco.editor.createModel(props.original, props.language),
          modified: monaco.editor.createModel(props.modified, props.language),
        };
        diff.setModel(models.current);
        // Bring the first change into view once the diff is computed: a one-line edit deep in a
        // long SKILL.md would otherwise sit below the fold.
        const once = diff.onDidUpdateDiff(() => {
          const first = diff.getLineChanges()?.[0];
          if (!first) return;
          once.dispose();
          diff.getModifiedEditor().revealLineInCenterIfOutsideViewport(Math.max(1, first.modifiedStartLineNumber));
        });
        editor.current = diff;
        stopTheme = followAppTheme(monaco);
        setEngine('monaco');
      })
      .catch((e: unknown) => {
        if (disposed) return;
        setFailure(e instanceof Error ? e.message : String(e));
        setEngine('plain');
      });
    return () => {
      disposed = true;
      stopTheme?.();
      editor.current?.dispose();
      models.current?.original.dispose();
      models.current?.modified.dispose();
      editor.current = null;
      models.current = null;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: engine re-runs this once the editor exists.
  useEffect(() => {
    const m = models.current;
    if (!m) return;
    if (m.original.getValue() !== props.original) m.original.setValue(props.original);
    if (m.modified.getValue() !== props.modified) m.modified.setValue(props.modified);
  }, [props.original, props.modified, engine]);

  useEffect(() => {
    editor.current?.updateOptions({ renderSideBySide: sideBySide });
  }, [sideBySide]);

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
