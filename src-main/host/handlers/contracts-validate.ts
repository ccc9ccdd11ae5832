import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import type { ContractKind, ContractProblem } from '../../api/contracts';
import { parsePhases } from '../../mcp';
import { issueSentence } from './contract-issues';

/**
 * Checks a contract's text before it is saved: JSON and YAML syntax with the line and column of
 * each error, then the structure the readers of the known contracts rely on (scripts/boundaries.ts
 * reads boundaries.json; src-main/mcp/physics.ts and contracts.test.ts read physics.yaml; the
 * builder and forge_get_phase_window read phases.md). Markdown is free text otherwise.
 */

export function kindOf(name: string): ContractKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.md')) return 'md';
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return 'yaml';
  return null;
}

const moduleName = z.string().regex(/^[a-z][a-z0-9-]*$/, 'A module name is lower-case letters, digits and hyphens');

/** The shape scripts/boundaries.ts (BoundaryRules) reads; a mistake here silently disables the import check. */
const boundariesSchema = z.object({
  modules: z.record(
    moduleName,
    z.object({
      path: z.string().min(1, 'A module needs the folder it lives in'),
      mayImport: z.array(moduleName),
      typeOnly: z.array(moduleName).optional(),
    }),
  ),
  packages: z.record(z.string(), z.object({ onlyIn: z.array(moduleName), why: z.string().optional() })).optional(),
  noNodeBuiltins: z.array(moduleName).optional(),
  sourceRoots: z.array(z.string().min(1)).optional(),
  internal: z
    .record(
      moduleName,
      z.object({
        rules: z.array(
          z.object({
            files: z.array(z.string().min(1)).min(1),
            mayImport: z.array(z.string()).optional(),
            typeOnly: z.array(z.string()).optional(),
            mayNotImport: z.array(z.string()).optional(),
            why: z.string().optional(),
          }),
        ),
      }),
    )
    .optional(),
});

/** The shape src-main/mcp/physics.ts (PhysicsDoc) and the contracts test read. */
const physicsSchema = z.object({
  paths: z.record(
    z.string().regex(/^\//, 'A path starts with /'),
    z.object({
      method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
      procedure: z.string().min(1).optional(),
      summary: z.string().optional(),
      input: z.unknown().optional(),
      output: z.unknown().optional(),
    }),
  ),
  events: z.record(z.string(), z.string()).optional(),
});

type Path = (string | number)[];
type Where = Pick<ContractProblem, 'line' | 'column' | 'endLine' | 'endColumn'>;

function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
}

function pointAt(line: number, column: number): Where {
  return { line, column, endLine: line, endColumn: column + 1 };
}

function pathText(path: Path): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out || '(document)';
}

/** JSON.parse names an offset ("at position 42") or, in newer engines, a line and column. */
function jsonSyntaxProblem(text: string, error: Error): ContractProblem {
  const message = error.message.split('\n')[0] ?? 'Invalid JSON';
  const lc = /line (\d+) column (\d+)/.exec(message);
  const pos = /position (\d+)/.exec(message);
  let where: Where;
  if (lc) where = pointAt(Number(lc[1]), Number(lc[2]));
  else if (pos) {
    const p = positionOf(text, Number(pos[1]));
    where = pointAt(p.line, p.column);
  } else {
    const p = positionOf(text, text.length);
    where = pointAt(p.line, p.column);
  }
  const plain = message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
  return { ...where, path: '(syntax)', message: `JSON syntax: ${plain}`, severity: 'error' };
}

/** Where a path of the document sits; a missing key points at the nearest parent that exists. */
function locate(doc: Document, counter: LineCounter, path: Path): Where {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) {
      const start = counter.linePos(node.range[0]);
      // Underline the value's first line only: a whole map would paint the rest of the file red.
      const end = counter.linePos(node.range[1]);
      const endLine = start.line;
      const endColumn = end.line === start.line ? Math.max(end.col, start.col + 1) : start.col + 1;
      return { line: start.line, column: start.col, endLine, endColumn };
    }
  }
  return pointAt(1, 1);
}

function schemaFor(name: string): z.ZodType | null {
  const base = name.toLowerCase();
  if (base === 'boundaries.json') return boundariesSchema;
  if (base === 'physics.yaml' || base === 'physics.yml') return physicsSchema;
  return null;
}

/** Names that must refer to a module of the same file (a typo would make a rule mean nothing). */
function boundaryReferences(data: z.infer<typeof boundariesSchema>): { path: Path; message: string }[] {
  const known = new Set(Object.keys(data.modules));
  const out: { path: Path; message: string }[] = [];
  const check = (names: string[] | undefined, at: Path) =>
    names?.forEach((m, i) => {
      if (!known.has(m)) out.push({ path: [...at, i], message: `"${m}" is not a module of this file; use one of ${[...known].join(', ')}` });
    });
  for (const [name, m] of Object.entries(data.modules)) {
    check(m.mayImport, ['modules', name, 'mayImport']);
    check(m.typeOnly, ['modules', name, 'typeOnly']);
  }
  for (const [name, p] of Object.entries(data.packages ?? {})) check(p.onlyIn, ['packages', name, 'onlyIn']);
  check(data.noNodeBuiltins, ['noNodeBuiltins']);
  return out;
}

function structureProblems(name: string, data: unknown, doc: Document, counter: LineCounter): ContractProblem[] {
  const schema = schemaFor(name);
  if (!schema) return [];
  const parsed = schema.safeParse(data);
  const found: { path: Path; message: string }[] = parsed.success
    ? name.toLowerCase() === 'boundaries.json'
      ? boundaryReferences(parsed.data as z.infer<typeof boundariesSchema>)
      : []
    : parsed.error.issues.map((i) => {
        const path = i.path.filter((p): p is string | number => typeof p !== 'symbol');
        return { path, message: issueSentence(i, path, pathText(path), data) };
      });
  return found.map((f) => ({ ...locate(doc, counter, f.path), path: pathText(f.path), message: f.message, severity: 'error' as const }));
}

function yamlProblems(name: string, text: string): ContractProblem[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  const problems: ContractProblem[] = [];
  for (const [list, severity] of [
    [doc.errors, 'error'],
    [doc.warnings, 'warning'],
  ] as const) {
    for (const e of list) {
      const [start, end] = e.linePos ?? [];
      const line = start?.line ?? 1;
      const column = start?.col ?? 1;
      problems.push({
        line,
        column,
        endLine: end?.line ?? line,
        endColumn: end && end.line === line ? Math.max(end.col, column + 1) : column + 1,
        path: '(syntax)',
        message: `YAML syntax: ${(e.message.split('\n')[0] ?? e.code).replace(/ at line \d+, column \d+:?$/, '')}`,
        severity,
      });
    }
  }
  if (doc.errors.length) return problems;
  return [...problems, ...structureProblems(name, doc.toJS(), doc, counter)];
}

function jsonProblems(name: string, text: string): ContractProblem[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return [jsonSyntaxProblem(text, e as Error)];
  }
  if (!schemaFor(name)) return [];
  // JSON is YAML 1.2, so the YAML parser gives every value of the document its line and column.
  const counter = new LineCounter();
  return structureProblems(name, data, parseDocument(text, { lineCounter: counter }), counter);
}

function markdownProblems(name: string, text: string): ContractProblem[] {
  if (name.toLowerCase() !== 'phases.md' || parsePhases(text).length > 0) return [];
  return [
    {
      ...pointAt(1, 1),
      path: '(document)',
      message: 'phases.md has no "## Phase N — name" headings: builds and forge_get_phase_window cannot read any phase.',
      severity: 'warning',
    },
  ];
}

/** Every problem of the text, errors before warnings, in document order. */
export function validateContract(name: string, text: string): ContractProblem[] {
  const kind = kindOf(name);
  const problems = kind === 'json' ? jsonProblems(name, text) : kind === 'yaml' ? yamlProblems(name, text) : markdownProblems(name, text);
  const rank = (p: ContractProblem) => (p.severity === 'error' ? 0 : 1);
  return problems.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
}
