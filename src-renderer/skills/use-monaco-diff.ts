import { type RefObject, useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api';
import { currentTheme, followAppTheme, loadMonaco } from './monaco-loader';

export type DiffEngine = 'loading' | 'monaco' | 'plain';

export interface MonacoDiffOptions {
  original: string;
  modified: string;
  language: string;
  /** Labels for screen readers: the whole diff, and each side's text box. */
  ariaLabel: string;
  originalAriaLabel: string;
  modifiedAriaLabel: string;
  sideBySide?: boolean;
  fontSize?: number;
  readOnlyMessage?: string;
  /** Scroll the first change into view once the diff is computed (a one-line edit deep in a long file). */
  revealFirstChange?: boolean;
}

/**
 * A read-only Monaco diff editor in `host`, shared by the Proposals and Contracts screens: created
 * once, following the app's theme, its two texts kept in step with the props, disposed with the
 * component. When Monaco cannot load, `engine` becomes `plain` (with the reason in `failure`) and
 * the caller shows the texts as plain columns, so the PM can still read both sides.
 */
export function useMonacoDiff(host: RefObject<HTMLDivElement | null>, options: MonacoDiffOptions): { engine: DiffEngine; failure: string | null } {
  const editor = useRef<Monaco.editor.IStandaloneDiffEditor | null>(null);
  const models = useRef<{ original: Monaco.editor.ITextModel; modified: Monaco.editor.ITextModel } | null>(null);
  const [engine, setEngine] = useState<DiffEngine>('loading');
  const [failure, setFailure] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; the effects below follow later texts and layout.
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
          ...(options.readOnlyMessage ? { readOnlyMessage: { value: options.readOnlyMessage } } : {}),
          renderSideBySide: options.sideBySide ?? true,
          // Keep two columns even in a narrow window: the PM compares before and after.
          useInlineViewWhenSpaceIsLimited: false,
          automaticLayout: true,
          minimap: { enabled: false },
          wordWrap: 'on',
          diffWordWrap: 'on',
          scrollBeyondLastLine: false,
          renderOverviewRuler: false,
          fontSize: options.fontSize ?? 13,
          ...(mono ? { fontFamily: mono } : {}),
          ariaLabel: options.ariaLabel,
          originalAriaLabel: options.originalAriaLabel,
          modifiedAriaLabel: options.modifiedAriaLabel,
        });
        models.current = {
          original: monaco.editor.createModel(options.original, options.language),
          modified: monaco.editor.createModel(options.modified, options.language),
        };
        diff.setModel(models.current);
        // The diff editor does not pass its side labels on to the two inner editors' text boxes.
        diff.getOriginalEditor().updateOptions({ ariaLabel: options.originalAriaLabel });
        diff.getModifiedEditor().updateOptions({ ariaLabel: options.modifiedAriaLabel });
        if (options.revealFirstChange) {
          const once = diff.onDidUpdateDiff(() => {
            const first = diff.getLineChanges()?.[0];
            if (!first) return;
            once.dispose();
            diff.getModifiedEditor().revealLineInCenterIfOutsideViewport(Math.max(1, first.modifiedStartLineNumber));
          });
        }
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
    if (m.original.getValue() !== options.original) m.original.setValue(options.original);
    if (m.modified.getValue() !== options.modified) m.modified.setValue(options.modified);
  }, [options.original, options.modified, engine]);

  useEffect(() => {
    editor.current?.updateOptions({ renderSideBySide: options.sideBySide ?? true });
  }, [options.sideBySide]);

  return { engine, failure };
}
