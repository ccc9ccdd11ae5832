import { useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api';
import type { ContractProblem } from '../../src-main/api/contracts';
import { currentTheme, followAppTheme, loadMonaco, type MonacoApi } from '../skills/monaco-loader';
import { markersOf } from './model';

type Engine = 'loading' | 'monaco' | 'plain';

/**
 * An editable contract in Monaco (loaded lazily, shared with Skills and Proposals), with the
 * core's problems as squiggles and Ctrl/Cmd+S to save. If Monaco cannot load, a plain text area
 * edits the same text, so a contract can still be fixed.
 */
export function ContractEditor(props: {
  /** Changes when another contract or version is loaded: the editor then takes `text` as its new content. */
  docKey: string;
  text: string;
  language: string;
  label: string;
  problems: ContractProblem[];
  onChange: (text: string) => void;
  onSave: () => void;
  /** A line to bring into view (a problem clicked in the list); `n` changes on every request. */
  reveal?: { line: number; column: number; n: number } | null;
}) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const api = useRef<MonacoApi | null>(null);
  const [engine, setEngine] = useState<Engine>('loading');
  // Monaco's command and listener are registered once; they call the latest props through these.
  const latest = useRef(props);
  latest.current = props;

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once with the first text; the effects below follow later texts.
  useEffect(() => {
    let disposed = false;
    let stopTheme: (() => void) | null = null;
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return;
        api.current = monaco;
        const mono = getComputedStyle(document.documentElement).getPropertyValue('--font-mono').trim();
        const ed = monaco.editor.create(host.current, {
          value: props.text,
          language: props.language,
          theme: currentTheme(),
          automaticLayout: true,
          minimap: { enabled: false },
          wordWrap: props.language === 'markdown' ? 'on' : 'off',
          scrollBeyondLastLine: false,
          fontSize: 13,
          tabSize: 2,
          insertSpaces: true,
          ...(mono ? { fontFamily: mono } : {}),
          ariaLabel: props.label,
        });
        ed.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onSave());
        ed.onDidChangeModelContent(() => latest.current.onChange(ed.getValue()));
        editor.current = ed;
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

  // A new contract (or a reload): replace the content; typing never comes back through here.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new document (docKey) replaces the text; engine re-runs this once the editor exists.
  useEffect(() => {
    const ed = editor.current;
    const monaco = api.current;
    const model = ed?.getModel();
    if (!ed || !monaco || !model) return;
    monaco.editor.setModelLanguage(model, props.language);
    if (model.getValue() !== props.text) model.setValue(props.text);
    ed.updateOptions({ wordWrap: props.language === 'markdown' ? 'on' : 'off', ariaLabel: props.label });
  }, [props.docKey, engine]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: engine re-runs this once the editor exists, so problems found before Monaco loaded are shown.
  useEffect(() => {
    const model = editor.current?.getModel();
    const monaco = api.current;
    if (!model || !monaco) return;
    const lines = model.getLineCount();
    const markers = markersOf(props.problems).map((m) => ({
      ...m,
      startLineNumber: Math.min(m.startLineNumber, lines),
      endLineNumber: Math.min(m.endLineNumber, lines),
    }));
    monaco.editor.setModelMarkers(model, 'forge-contracts', markers);
  }, [props.problems, engine]);

  useEffect(() => {
    const ed = editor.current;
    const r = props.reveal;
    if (!ed || !r) return;
    ed.revealLineInCenter(r.line);
    ed.setPosition({ lineNumber: r.line, column: r.column });
    ed.focus();
  }, [props.reveal]);

  return (
    <div className="contract-editor" data-testid="contract-editor" data-engine={engine}>
      {engine !== 'plain' && <div className="contract-editor-monaco" ref={host} aria-busy={engine === 'loading'} />}
      {engine === 'loading' && <p className="contract-editor-loading muted">Opening the editor…</p>}
      {engine === 'plain' && (
        <textarea
          className="contract-editor-plain"
          aria-label={props.label}
          spellCheck={false}
          value={props.text}
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
