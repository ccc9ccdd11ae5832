/**
 * Monaco for the Skills and Proposals screens, loaded only through `import('./monaco')` so the main bundle never
 * carries it. Only the editor core, the features a read-only viewer needs (find, folding, bracket
 * matching, copy, go to line) and the few Monarch grammars skill files use are pulled in — no
 * language services, so the one worker is the plain editor worker.
 */
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/codeEditor/register';
// The Proposals screen's side-by-side diff (its navigation and accessible-diff actions).
import 'monaco-editor/features/diffEditor/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/gotoLine/register';
import 'monaco-editor/features/readOnlyMessage/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/links/register';
import 'monaco-editor/languages/definitions/markdown/register';
import 'monaco-editor/languages/definitions/javascript/register';
import 'monaco-editor/languages/definitions/typescript/register';
import 'monaco-editor/languages/definitions/yaml/register';
import 'monaco-editor/languages/definitions/python/register';
import 'monaco-editor/languages/definitions/shell/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

// Vite bundles the worker as a same-origin file, which the CSP's `worker-src 'self' blob:` allows.
(globalThis as { MonacoEnvironment?: monaco.Environment }).MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

export { monaco };
