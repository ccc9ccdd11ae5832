import type { ContractKind, ContractProblem, ContractScope } from '../../src-main/api/contracts';

/**
 * The Contracts screen's decisions, kept apart from React so they can be tested: which Monaco
 * grammar a contract uses, the markers its problems become, when Save is allowed, and which
 * project the PM last opened (kept for the session so a reload returns to it).
 */

/** JSON has no grammar in Forge's slim Monaco build; JavaScript's colours JSON correctly, and the core does the checking. */
export function languageOf(kind: ContractKind): string {
  return kind === 'yaml' ? 'yaml' : kind === 'json' ? 'javascript' : 'markdown';
}

export interface MarkerData {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
  message: string;
  /** Monaco's MarkerSeverity: 8 error, 4 warning. */
  severity: 8 | 4;
  source: string;
}

export function markersOf(problems: ContractProblem[]): MarkerData[] {
  return problems.map((p) => ({
    startLineNumber: p.line,
    startColumn: p.column,
    endLineNumber: p.endLine,
    endColumn: p.endColumn,
    message: p.path === '(syntax)' || p.path === '(document)' ? p.message : `${p.path}: ${p.message}`,
    severity: p.severity === 'error' ? 8 : 4,
    source: 'Forge contracts',
  }));
}

export type SaveBlock = 'unchanged' | 'checking' | 'invalid' | 'saving' | null;

/** Why Save is off, or null when it may run: only a changed text the core has checked and found valid. */
export function saveBlock(s: { dirty: boolean; checkedText: string | null; text: string; errors: number; saving: boolean }): SaveBlock {
  if (s.saving) return 'saving';
  if (!s.dirty) return 'unchanged';
  if (s.checkedText !== s.text) return 'checking';
  if (s.errors > 0) return 'invalid';
  return null;
}

export const SAVE_BLOCK_TEXT: Record<Exclude<SaveBlock, null>, string> = {
  unchanged: 'No changes to save',
  checking: 'Checking…',
  invalid: 'Fix the problems below to save',
  saving: 'Saving…',
};

export function problemsSummary(problems: ContractProblem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  if (!problems.length) return 'No problems';
  const parts = [errors ? `${errors} ${errors === 1 ? 'error' : 'errors'}` : '', warnings ? `${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` : ''];
  return parts.filter(Boolean).join(', ');
}

const PROJECT_KEY = 'forge.contracts.project';

/** The open project's folder for this session (empty: Forge's own contracts). */
export function storedScope(storage: Pick<Storage, 'getItem'> | undefined = globalThis.sessionStorage): ContractScope {
  const path = storage?.getItem(PROJECT_KEY)?.trim();
  return path ? { projectPath: path } : {};
}

export function storeScope(scope: ContractScope, storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined = globalThis.sessionStorage): void {
  if (scope.projectPath) storage?.setItem(PROJECT_KEY, scope.projectPath);
  else storage?.removeItem(PROJECT_KEY);
}

export function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}
