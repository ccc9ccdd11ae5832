import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The boundary check: reads every import under the source roots and reports each one that
 * breaks contracts/boundaries.json — naming the file, the line and the import. A source file in a
 * folder the rules do not list is itself a violation: a new folder states its layer first.
 */
export interface BoundaryRules {
  modules: Record<string, { path: string; mayImport: string[]; typeOnly?: string[] }>;
  packages: Record<string, { onlyIn: string[]; why?: string }>;
  noNodeBuiltins: string[];
  sourceRoots: string[];
  /** Layering inside one module, file by file (names relative to the module's folder, no extension). */
  internal?: Record<string, { rules: InternalRule[] }>;
}

export interface InternalRule {
  files: string[];
  /** When given, the only files of the same module these may import (at run time). */
  mayImport?: string[];
  /** Files of the same module these may import with `import type` only. */
  typeOnly?: string[];
  /** Files of the same module these must not import. */
  mayNotImport?: string[];
  why?: string;
}

export interface ImportRef {
  specifier: string;
  line: number;
  typeOnly: boolean;
}

export interface Violation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

export function listImports(fileName: string, text: string): ImportRef[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: ImportRef[] = [];
  const lineOf = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const allTypes =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, line: lineOf(node), typeOnly: allTypes });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, line: lineOf(node), typeOnly: node.isTypeOnly });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      out.push({ specifier: node.moduleReference.expression.text, line: lineOf(node), typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isDynamicImport || isRequire) out.push({ specifier: node.arguments[0].text, line: lineOf(node), typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ specifier: node.argument.literal.text, line: lineOf(node), typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function walk(dir: string, files: string[] = []): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return files;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, files);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts.map')) files.push(full);
  }
  return files;
}

function moduleOf(relPath: string, rules: BoundaryRules): string | undefined {
  const norm = relPath.split(sep).join('/');
  let best: string | undefined;
  let bestLen = -1;
  for (const [name, m] of Object.entries(rules.modules)) {
    if ((norm === m.path || norm.startsWith(m.path + '/')) && m.path.length > bestLen) {
      best = name;
      bestLen = m.path.length;
    }
  }
  return best;
}

/** "src-main/mcp/tools.ts" → "tools" within module mcp; a folder import names its index. */
function fileWithin(relPath: string, modulePath: string, root: string): string {
  let inner = relPath.slice(modulePath.length + 1).replace(/\.(ts|tsx|mts|cts|js|mjs)$/, '');
  if (existsSync(join(root, relPath)) && statSync(join(root, relPath)).isDirectory()) inner += '/index';
  return inner;
}

function internalViolation(rules: BoundaryRules, mod: string, fromFile: string, toFile: string, typeOnly: boolean): string | undefined {
  for (const rule of rules.internal?.[mod]?.rules ?? []) {
    if (!rule.files.includes(fromFile)) continue;
    const why = rule.why ? ` (${rule.why})` : '';
    if (rule.mayNotImport?.includes(toFile)) return `${mod}/${fromFile} may not import ${mod}/${toFile}${why}`;
    if (rule.typeOnly?.includes(toFile) && !typeOnly) return `${mod}/${fromFile} may import only types from ${mod}/${toFile}: use \`import type\`${why}`;
    if (rule.mayImport && !rule.mayImport.includes(toFile) && !rule.typeOnly?.includes(toFile)) {
      return `${mod}/${fromFile} may not import ${mod}/${toFile} (allowed: ${[...rule.mayImport, ...(rule.typeOnly ?? []).map((t) => `${t} (types)`)].join(', ') || `no other ${mod} file`})${why}`;
    }
  }
  return undefined;
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function checkBoundaries(root: string, rules: BoundaryRules): { violations: Violation[]; filesChecked: number } {
  const violations: Violation[] = [];
  let filesChecked = 0;
  for (const sourceRoot of rules.sourceRoots) {
    for (const file of walk(join(root, sourceRoot))) {
      filesChecked++;
      const rel = relative(root, file).split(sep).join('/');
      const from = moduleOf(rel, rules);
      const isTest = /\.test\.tsx?$/.test(rel) || rel.includes('/__tests__/');
      if (!from) {
        violations.push({
          file: rel,
          line: 0,
          specifier: '',
          rule: `${dirname(rel)} is a folder contracts/boundaries.json does not list: add it as a module with the layers it may import (DESIGN.md §3), or move the file`,
        });
        continue;
      }
      for (const imp of listImports(file, readFileSync(file, 'utf8'))) {
        const report = (rule: string) => violations.push({ file: rel, line: imp.line, specifier: imp.specifier, rule });
        if (imp.specifier.startsWith('.')) {
          const target = relative(root, resolve(dirname(file), imp.specifier))
            .split(sep)
            .join('/');
          const to = moduleOf(target, rules);
          if (!to) {
            // Tests may reach fixtures and scripts outside the source roots; shipped code may not.
            if (!isTest) report(`${from} imports ${target}, which belongs to no module in contracts/boundaries.json`);
            continue;
          }
          if (to === from) {
            const modPath = rules.modules[from].path;
            const inner = isTest ? undefined : internalViolation(rules, from, fileWithin(rel, modPath, root), fileWithin(target, modPath, root), imp.typeOnly);
            if (inner) report(inner);
            continue;
          }
          const spec = rules.modules[from];
          if (!spec.mayImport.includes(to)) {
            report(`${from} may not import ${to} (allowed: ${spec.mayImport.join(', ') || 'nothing of ours'})`);
          } else if (spec.typeOnly?.includes(to) && !imp.typeOnly) {
            report(`${from} may import only types from ${to}: use \`import type\``);
          }
          continue;
        }
        const pkg = packageName(imp.specifier);
        const restricted = rules.packages[pkg];
        if (restricted && !imp.typeOnly && !restricted.onlyIn.includes(from)) {
          report(`${pkg} may be imported only in ${restricted.onlyIn.join(', ')}${restricted.why ? ` (${restricted.why})` : ''}`);
        }
        if (rules.noNodeBuiltins.includes(from) && builtins.has(imp.specifier)) {
          report(`${from} must not import Node built-ins (${imp.specifier}): it runs outside Node`);
        }
      }
    }
  }
  return { violations, filesChecked };
}

export function formatViolations(violations: Violation[]): string {
  return violations.map((v) => (v.specifier ? `${v.file}:${v.line}  import '${v.specifier}'  — ${v.rule}` : `${v.file}  — ${v.rule}`)).join('\n');
}

// CLI: `tsx scripts/boundaries.ts` (part of npm test).
if (process.argv[1] && /boundaries\.ts$/.test(process.argv[1])) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
  const rules = JSON.parse(readFileSync(join(root, 'contracts', 'boundaries.json'), 'utf8')) as BoundaryRules;
  const { violations, filesChecked } = checkBoundaries(root, rules);
  if (violations.length) {
    console.error(`Boundary check failed: ${violations.length} import(s) break contracts/boundaries.json\n${formatViolations(violations)}`);
    process.exit(1);
  }
  console.log(`Boundary check passed: ${filesChecked} files, every import within contracts/boundaries.json.`);
}
