import type * as Monaco from 'monaco-editor/editor/editor.api';

/**
 * How every editor gets Monaco: one dynamic import of `./monaco` for the whole session (the main
 * bundle never carries it), the app's light/dark theme, and following the theme switch live.
 */
export type MonacoApi = typeof Monaco;

let loading: Promise<MonacoApi> | null = null;

export function loadMonaco(): Promise<MonacoApi> {
  loading ??= import('./monaco').then((m) => m.monaco);
  loading.catch(() => {
    loading = null; // a failed fetch may succeed next time
  });
  return loading;
}

export function currentTheme(): 'vs' | 'vs-dark' {
  return document.documentElement.dataset.theme === 'dark' ? 'vs-dark' : 'vs';
}

/** Follows the app's light/dark switch without recreating the editor; returns the stop function. */
export function followAppTheme(monaco: MonacoApi): () => void {
  const observer = new MutationObserver(() => monaco.editor.setTheme(currentTheme()));
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}
