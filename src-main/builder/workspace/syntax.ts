import { execFile } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { scrubEnv } from './commands';
import { readTextFile } from './files';
import { findJsonError, lineColumn } from './json-position';

/**
 * check_syntax: parse one file and report syntax errors with line:column — never types, imports
 * or lint, so it is fast and needs nothing installed but Python for .py files.
 */

export interface SyntaxProblem {
  line: number;
  column: number;
  message: string;
}

export interface SyntaxCheck {
  file: string;
  /** What parsed it: "TypeScript", "JSON", "YAML", "Python"; null when the type is not supported. */
  checker: string | null;
  ok: boolean;
  problems: SyntaxProblem[];
  /** Why the file could not be checked (unsupported type, no python3). */
  note?: string;
}

const SCRIPT_EXTS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const SUPPORTED = 'TypeScript/JavaScript (.ts .tsx .mts .cts .js .jsx .mjs .cjs), JSON (.json), YAML (.yaml .yml), Python (.py)';
const MAX_PROBLEMS = 20;

export async function checkSyntax(workDir: string, given: string): Promise<SyntaxCheck> {
  // Reading first confines the path and refuses folders, binaries and oversized files.
  const { name: file, abs, text } = await readTextFile(workDir, given);
  // The real file decides (a link named x.ts may point at a JSON file).
  const ext = path.extname(abs).toLowerCase();
  const supported = SCRIPT_EXTS.has(ext) || ext === '.json' || ext === '.yaml' || ext === '.yml' || ext === '.py';
  if (!supported) {
    return { file, checker: null, ok: false, problems: [], note: `Cannot check "${ext || 'extension-less'}" files. Supported: ${SUPPORTED}.` };
  }
  if (SCRIPT_EXTS.has(ext)) return { file, checker: 'TypeScript', ...done(await scriptProblems(text, path.basename(abs))) };
  if (ext === '.json') return { file, checker: 'JSON', ...done(jsonProblems(text)) };
  if (ext === '.py') return { file, ...(await pythonCheck(abs)) };
  return { file, checker: 'YAML', ...done(yamlProblems(text)) };
}

function done(problems: SyntaxProblem[]): { ok: boolean; problems: SyntaxProblem[] } {
  return { ok: problems.length === 0, problems: problems.slice(0, MAX_PROBLEMS) };
}

type TS = typeof import('typescript');

/** The compiler is large: loaded on the first check (the module system keeps it), not when the builder starts. */
async function typescript(): Promise<TS> {
  const mod = (await import('typescript')) as TS & { default?: TS };
  return mod.default ?? mod;
}

async function scriptProblems(text: string, fileName: string): Promise<SyntaxProblem[]> {
  const ts = await typescript();
  // transpileModule reports the parser's syntactic diagnostics only: no types, no module resolution.
  const out = ts.transpileModule(text, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, jsx: ts.JsxEmit.Preserve, allowJs: true },
  });
  return (out.diagnostics ?? [])
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.file && d.start !== undefined)
    .map((d) => {
      const { line, character } = ts.getLineAndCharacterOfPosition(d.file!, d.start!);
      return { line: line + 1, column: character + 1, message: ts.flattenDiagnosticMessageText(d.messageText, ' ') };
    });
}

function jsonProblems(text: string): SyntaxProblem[] {
  try {
    JSON.parse(text);
    return [];
  } catch (e) {
    const found = findJsonError(text);
    if (found) return [{ ...lineColumn(text, found.offset), message: found.message }];
    return [{ line: 1, column: 1, message: (e as Error).message }];
  }
}

function yamlProblems(text: string): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const doc of parseAllDocuments(text, { prettyErrors: false })) {
    for (const err of doc.errors) {
      const at = err.linePos?.[0] ?? lineColumn(text, err.pos[0]);
      problems.push({ line: at.line, column: 'col' in at ? at.col : at.column, message: err.message.split('\n')[0] });
    }
  }
  return problems;
}

// compile() is what py_compile runs, without writing a .pyc into the project's __pycache__.
const PY_CHECK = `
import json, sys
p = sys.argv[1]
try:
    compile(open(p, 'rb').read(), p, 'exec', dont_inherit=True)
except SyntaxError as e:
    print(json.dumps({'line': e.lineno or 1, 'col': e.offset or 1, 'msg': e.msg}))
    sys.exit(1)
except ValueError as e:
    print(json.dumps({'line': 1, 'col': 1, 'msg': str(e)}))
    sys.exit(1)
print('{}')
`;

async function pythonCheck(abs: string): Promise<Omit<SyntaxCheck, 'file'>> {
  return new Promise((resolve) => {
    execFile('python3', ['-c', PY_CHECK, abs], { env: scrubEnv(), timeout: 20_000, maxBuffer: 1024 * 1024 }, (err, stdout) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        return resolve({ checker: null, ok: false, problems: [], note: 'python3 is not installed on this machine, so Python files cannot be checked here.' });
      }
      try {
        const r = JSON.parse(stdout.trim() || 'null') as { line?: number; col?: number; msg?: string } | null;
        if (r?.msg) return resolve({ checker: 'Python', ok: false, problems: [{ line: r.line ?? 1, column: r.col ?? 1, message: r.msg }] });
        if (r && !err) return resolve({ checker: 'Python', ok: true, problems: [] });
      } catch {
        /* fall through: python3 printed something else */
      }
      resolve({ checker: null, ok: false, problems: [], note: `python3 could not check the file: ${(err?.message ?? stdout).slice(0, 300)}` });
    });
  });
}

/** The text the model reads. */
export function formatSyntaxCheck(c: SyntaxCheck): string {
  if (c.note) return `${c.file}: not checked. ${c.note}`;
  if (c.ok) return `${c.file}: no syntax errors (${c.checker}).`;
  const lines = c.problems.map((p) => `${c.file}:${p.line}:${p.column}: ${p.message}`);
  return `${c.file}: ${c.problems.length} syntax error${c.problems.length === 1 ? '' : 's'} (${c.checker}):\n${lines.join('\n')}`;
}
