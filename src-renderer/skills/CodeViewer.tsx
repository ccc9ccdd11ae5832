import { useEffect, useRef, useState } from 'react';
import { currentTheme, followAppTheme, loadMonaco, type MonacoApi } from './monaco-loader';
type Engine = 'loading' | 'monaco' | 'plain';

const READ_ONLY_NOTE = 'Read-only here: changes to a skill arrive as skill-edit proposals you approve.';

/**
 * A read-only code view of one skill file. Monaco when it loads; if it cannot (a blocked worker,
 * a failed chunk), the same text in a plain numbered view, so the PM can still read the file.
 */
export function CodeViewer(props: {
  text: string;
  language: string;
  path: string;
  /** A line to bring into view and select (a problem's field); `n` changes on every request. */
  reveal?: { line: number; n: number } | null;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<ReturnType<MonacoApi['editor']['create']> | null>(null);
  const api = useRef<MonacoApi | null>(null);
  const [engine, setEngine] = useState<Engine>('loading');
  const [failure, setFailure] = useState<string | null>(null);

  // Create the editor once; later files reuse it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: created once with the first file; the effect below follows later files.
  useEffect(() => {
    let disposed = false;
    let stopTheme: (() => void) | null = null;
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return;
        api.current = monaco;
        const mono = getComputedStyle(document.documentElement).getPropertyValue('--font-mono').trim();
        editor.current = monaco.editor.create(host.current, {
          value: props.text,
          language: props.language,
          theme: currentTheme(),
          readOnly: true,
          domReadOnly: true,
          readOnlyMessage: { value: READ_ONLY_NOTE },
          automaticLayout: true,
          minimap: { enabled: false },
          wordWrap: props.language === 'markdown' ? 'on' : 'off',
          scrollBeyondLastLine: false,
          renderLineHighlight: 'none',
          fontSize: 13,
          ...(mono ? { fontFamily: mono } : {}),
          ariaLabel: `${props.path} (read-only)`,
        });
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
      editor.current?.getModel()?.dispose();
      editor.current?.dispose();
      editor.current = null;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reveal.n re-reveals the same line on a repeated request; engine re-runs this once the editor exists.
  useEffect(() => {
    const ed = editor.current;
    const monaco = api.current;
    if (!ed || !monaco) return;
    const model = ed.getModel();
    if (model) {
      monaco.editor.setModelLanguage(model, props.language);
      if (model.getValue() !== props.text) model.setValue(props.text);
    }
    ed.updateOptions({ wordWrap: props.language === 'markdown' ? 'on' : 'off', ariaLabel: `${props.path} (read-only)` });
    const line = props.reveal?.line;
    if (line && model && line <= model.getLineCount()) {
      ed.revealLineInCenter(line);
      ed.setSelection(new monaco.Selection(line, 1, line, model.getLineMaxColumn(line)));
    } else {
      ed.setScrollPosition({ scrollTop: 0, scrollLeft: 0 });
    }
  }, [props.text, props.language, props.path, props.reveal?.line, props.reveal?.n, engine]);

  return (
    <div className="code-viewer" data-testid="skill-editor" data-engine={engine} data-path={props.path}>
      {engine !== 'plain' && <div className="code-viewer-monaco" ref={host} aria-busy={engine === 'loading'} />}
      {engine === 'loading' && <p className="code-viewer-loading muted">Opening the editor…</p>}
      {engine === 'plain' && <PlainView text={props.text} path={props.path} note={failure} mark={props.reveal?.line ?? null} />}
    </div>
  );
}

/** The fallback: numbered lines in a `<pre>`, selectable and searchable with the browser's find. */
export function PlainView(props: { text: string; path: string; note: string | null; mark?: number | null }) {
  const lines = props.text.split('\n');
  const width = String(lines.length).length;
  return (
    <div className="code-viewer-plain">
      {props.note && (
        <p className="code-viewer-note muted" role="status">
          The editor could not load ({props.note}); showing the file as plain text.
        </p>
      )}
      <pre
        role="region"
        aria-label={`${props.path} (read-only)`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus so it can be scrolled without a mouse (WCAG 2.1.1).
        tabIndex={0}
      >
        {lines.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a line of a read-only file is identified by its number.
          <span key={i} className={props.mark === i + 1 ? 'code-line marked' : 'code-line'}>
            <span className="code-line-no" aria-hidden="true" style={{ width: `${width + 1}ch` }}>
              {i + 1}
            </span>
            {l}
            {'\n'}
          </span>
        ))}
      </pre>
    </div>
  );
}
