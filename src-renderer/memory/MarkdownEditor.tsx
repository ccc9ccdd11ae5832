import { useEffect, useRef, useState } from 'react';
import { currentTheme, followAppTheme, loadMonaco, type MonacoApi } from '../skills/monaco-loader';
type Engine = 'loading' | 'monaco' | 'plain';

export interface LineProblem {
  line: number;
  message: string;
}

/**
 * An editable markdown box for one record: Monaco when it loads (a problem is marked on its
 * line), a plain textarea when it cannot, so the PM can still write. Ctrl/Cmd+S saves.
 */
export function MarkdownEditor(props: { value: string; onChange: (text: string) => void; onSave: () => void; problem: LineProblem | null; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<ReturnType<MonacoApi['editor']['create']> | null>(null);
  const api = useRef<MonacoApi | null>(null);
  // The latest callbacks, read by listeners registered once.
  const latest = useRef(props);
  latest.current = props;
  const [engine, setEngine] = useState<Engine>('loading');

  useEffect(() => {
    let disposed = false;
    let stopTheme: (() => void) | null = null;
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return;
        api.current = monaco;
        const mono = getComputedStyle(document.documentElement).getPropertyValue('--font-mono').trim();
        const ed = monaco.editor.create(host.current, {
          value: latest.current.value,
          language: 'markdown',
          theme: currentTheme(),
          automaticLayout: true,
          minimap: { enabled: false },
          wordWrap: 'on',
          scrollBeyondLastLine: false,
          fontSize: 13,
          ...(mono ? { fontFamily: mono } : {}),
          ariaLabel: latest.current.label,
        });
        editor.current = ed;
        ed.onDidChangeModelContent(() => latest.current.onChange(ed.getValue()));
        ed.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onSave());
        // A new record starts with the cursor after `# new — `, where its title goes.
        ed.setPosition({ lineNumber: 1, column: ed.getModel()?.getLineMaxColumn(1) ?? 1 });
        ed.focus();
        stopTheme = followAppTheme(monaco);
        setEngine('monaco');
      })
      .catch(() => {
        if (!disposed) setEngine('plain');
      });
    return () => {
      disposed = true;
      stopTheme?.();
      editor.current?.getModel()?.dispose();
      editor.current?.dispose();
      editor.current = null;
    };
  }, []);

  // A reload (after a conflict) replaces the text; the PM's own typing is already in the model.
  useEffect(() => {
    const model = engine === 'monaco' ? editor.current?.getModel() : null;
    if (model && model.getValue() !== props.value) model.setValue(props.value);
  }, [props.value, engine]);

  // The parse error as a marker on its line, brought into view.
  useEffect(() => {
    const ed = editor.current;
    const monaco = api.current;
    const model = ed?.getModel();
    if (engine !== 'monaco' || !ed || !monaco || !model) return;
    const p = props.problem;
    const line = p && Math.min(Math.max(1, p.line), model.getLineCount());
    monaco.editor.setModelMarkers(
      model,
      'forge',
      p && line
        ? [
            {
              severity: monaco.MarkerSeverity.Error,
              message: p.message,
              startLineNumber: line,
              startColumn: 1,
              endLineNumber: line,
              endColumn: model.getLineMaxColumn(line),
            },
          ]
        : [],
    );
    if (line) ed.revealLineInCenterIfOutsideViewport(line);
  }, [props.problem, engine]);

  return (
    <div className="record-editor-box" data-testid="record-editor-box" data-engine={engine} data-error-line={props.problem?.line ?? undefined}>
      {engine !== 'plain' && <div className="record-editor-monaco" ref={host} aria-busy={engine === 'loading'} />}
      {engine === 'loading' && <p className="code-viewer-loading muted">Opening the editor…</p>}
      {engine === 'plain' && (
        <textarea
          className="record-editor-plain"
          aria-label={props.label}
          aria-invalid={props.problem ? true : undefined}
          spellCheck={false}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          onKeyDown={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
              e.preventDefault();
              props.onSave();
            }
          }}
        />
      )}
    </div>
  );
}
