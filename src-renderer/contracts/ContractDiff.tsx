import { useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api';
import { PlainView } from '../skills/CodeViewer';
import { currentTheme, followAppTheme, loadMonaco } from '../skills/monaco-loader';

type Engine = 'loading' | 'monaco' | 'plain';

/**
 * A kept version of a contract beside the text in the editor, in Monaco's diff editor (read-only:
 * the PM copies back what they want). Falls back to two plain columns if Monaco cannot load.
 */
export function ContractDiff(props: { original: string; modified: string; language: string; originalLabel: string; modifiedLabel: string }) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Monaco.editor.IStandaloneDiffEditor | null>(null);
  const models = useRef<{ original: Monaco.editor.ITextModel; modified: Monaco.editor.ITextModel } | null>(null);
  const [engine, setEngine] = useState<Engine>('loading');

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; the effect below follows later texts.
  useEffect(() => {
    let disposed = false;
    let stopTheme: (() => void) | null = null;
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return;
        const diff = monaco.editor.createDiffEditor(host.current, {
          theme: currentTheme(),
          readOnly: true,
          originalEditable: false,
          renderSideBySide: true,
          useInlineViewWhenSpaceIsLimited: false,
          automaticLayout: true,
          minimap: { enabled: false },
          wordWrap: 'on',
          diffWordWrap: 'on',
          scrollBeyondLastLine: false,
          fontSize: 12,
          domReadOnly: true,
          ariaLabel: `${props.originalLabel} beside ${props.modifiedLabel}`,
          originalAriaLabel: props.originalLabel,
          modifiedAriaLabel: props.modifiedLabel,
        });
        models.current = {
          original: monaco.editor.createModel(props.original, props.language),
          modified: monaco.editor.createModel(props.modified, props.language),
        };
        diff.setModel(models.current);
        // The diff editor does not pass its side labels on to the two inner editors' text boxes.
        diff.getOriginalEditor().updateOptions({ ariaLabel: props.originalLabel });
        diff.getModifiedEditor().updateOptions({ ariaLabel: props.modifiedLabel });
        editor.current = diff;
        stopTheme = followAppTheme(monaco);
        setEngine('monaco');
      })
      .catch(() => {
        if (!disposed) setEngine('plain');
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

  return (
    <div className="contract-diff" data-testid="contract-diff" data-engine={engine}>
      <div className="contract-diff-heads">
        <span>{props.originalLabel}</span>
        <span>{props.modifiedLabel}</span>
      </div>
      {engine !== 'plain' && <div className="contract-diff-monaco" ref={host} aria-busy={engine === 'loading'} />}
      {engine === 'plain' && (
        <div className="contract-diff-plain">
          <PlainView text={props.original} path={props.originalLabel} note={null} />
          <PlainView text={props.modified} path={props.modifiedLabel} note={null} />
        </div>
      )}
    </div>
  );
}
