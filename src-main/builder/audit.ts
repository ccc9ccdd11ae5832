import { parse as parseYaml } from 'yaml';
import type { AuditFinding } from '../api/builds';
import { globMatcher, type ImportRef, importsOf, importTarget, isSourceFile, type ProjectFile, projectTextFiles } from './audit-files';

/**
 * The deterministic half of the audit after a phase (the auditor model is the other half):
 * the project's layer rules applied to its imports, and no governance text in the product.
 * Severe findings block the phase from advancing; warnings are shown and kept.
 */

const finding = (severity: AuditFinding['severity'], source: AuditFinding['source'], file: string | null, message: string): AuditFinding => ({
  severity,
  source,
  file,
  message,
});

// ── Layer boundaries ─────────────────────────────────────────────────────────

interface LayerRule {
  layer: string;
  matches: (path: string) => boolean;
  forbidden: { pattern: RegExp; source: string; reason: string }[];
}

/**
 * The project's boundaries contract over the imports of its TS/JS and Python files. Two shapes
 * are read:
 * - a target project's (the seed's): `{layers: [{name, glob, forbidden: [{pattern, reason}]}]}` —
 *   each forbidden pattern is a regular expression tested against what a file in the layer imports
 *   (the module, and for Python `from m import n` also "m.n" and "n");
 * - Forge's own (contracts/boundaries.json): `{modules: {name: {path, mayImport}}, packages}` — an
 *   import resolving into another module not in mayImport, or a package used outside its onlyIn.
 * Imports only, not the whole text: a pattern found in a comment or a string is not a dependency.
 * One severe finding per violating import; a contract that cannot be read is one warning.
 */
export function checkLayerBoundaries(workDir: string, boundaries: unknown): AuditFinding[] {
  const b = (typeof boundaries === 'string' ? safeJson(boundaries) : boundaries) as Record<string, unknown> | null;
  if (b === null && typeof boundaries === 'string') {
    return [finding('warning', 'boundaries', null, 'The boundaries contract is not valid JSON, so no layer rule was checked.')];
  }
  if (Array.isArray(b?.layers)) return checkLayers(sourceFiles(workDir), b.layers);
  if (b?.modules && typeof b.modules === 'object') return checkModules(sourceFiles(workDir), b as unknown as ModuleRules);
  return [finding('warning', 'boundaries', null, 'The boundaries contract has neither "layers" nor "modules", so no layer rule was checked.')];
}

const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
};

function sourceFiles(workDir: string): ProjectFile[] {
  return projectTextFiles(workDir).filter((f) => isSourceFile(f.path));
}

const candidatesOf = (ref: ImportRef) => [ref.specifier, ...ref.names.flatMap((n) => [`${ref.specifier}.${n}`, n])];

function checkLayers(files: ProjectFile[], layers: unknown[]): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const rules: LayerRule[] = [];
  for (const [i, raw] of layers.entries()) {
    const l = (raw ?? {}) as Record<string, unknown>;
    const layer = typeof l.name === 'string' ? l.name : `layer ${i + 1}`;
    const globs = [l.glob, l.globs, l.path, l.paths].flat().filter((g): g is string => typeof g === 'string' && g.trim() !== '');
    if (!globs.length) {
      findings.push(finding('warning', 'boundaries', null, `The ${layer} layer in the boundaries contract names no glob, so its rules were not checked.`));
      continue;
    }
    const forbidden: LayerRule['forbidden'] = [];
    for (const f of Array.isArray(l.forbidden) ? l.forbidden : []) {
      const source = typeof f === 'string' ? f : typeof f?.pattern === 'string' ? f.pattern : null;
      if (!source) continue;
      try {
        forbidden.push({ pattern: new RegExp(source), source, reason: typeof f?.reason === 'string' ? f.reason : '' });
      } catch {
        findings.push(
          finding(
            'warning',
            'boundaries',
            null,
            `The ${layer} layer's forbidden pattern /${source}/ is not a valid regular expression, so it was not checked.`,
          ),
        );
      }
    }
    const matchers = globs.map(globMatcher);
    rules.push({ layer, matches: (p) => matchers.some((m) => m(p)), forbidden });
  }
  for (const file of files) {
    const applicable = rules.filter((r) => r.matches(file.path));
    if (!applicable.length) continue;
    for (const ref of importsOf(file.path, file.text)) {
      const candidates = candidatesOf(ref);
      for (const rule of applicable) {
        const hit = rule.forbidden.find((f) => candidates.some((c) => f.pattern.test(c)));
        if (hit) {
          const why = hit.reason ? ` — ${hit.reason}` : '';
          findings.push(
            finding(
              'severe',
              'boundaries',
              file.path,
              `${file.path}:${ref.line} imports "${ref.specifier}", which the ${rule.layer} layer forbids (/${hit.source}/)${why}.`,
            ),
          );
        }
      }
    }
  }
  return findings;
}

interface ModuleRules {
  modules: Record<string, { path: string; mayImport?: string[] }>;
  packages?: Record<string, { onlyIn?: string[] }>;
}

function checkModules(files: ProjectFile[], rules: ModuleRules): AuditFinding[] {
  const mods = Object.entries(rules.modules)
    .filter(([, m]) => m && typeof m.path === 'string')
    .map(([name, m]) => ({ name, path: m.path.replace(/\/+$/, ''), mayImport: m.mayImport ?? [] }))
    .sort((a, b) => b.path.length - a.path.length);
  const moduleOf = (p: string) => mods.find((m) => p === m.path || p.startsWith(`${m.path}/`));
  const findings: AuditFinding[] = [];
  for (const file of files) {
    const own = moduleOf(file.path);
    if (!own) continue;
    const isPython = file.path.endsWith('.py');
    for (const ref of importsOf(file.path, file.text)) {
      const target = importTarget(file.path, ref, isPython);
      const to = target === null ? undefined : moduleOf(target);
      if (to && to.name !== own.name && !own.mayImport.includes(to.name)) {
        const allowed = own.mayImport.length ? `only ${own.mayImport.join(', ')}` : 'no other module';
        findings.push(
          finding(
            'severe',
            'boundaries',
            file.path,
            `${file.path}:${ref.line} imports "${ref.specifier}" from module ${to.name}; module ${own.name} may import ${allowed}.`,
          ),
        );
        continue;
      }
      if (target !== null && !isPython) continue;
      const pkg = packageName(ref.specifier);
      const onlyIn = rules.packages?.[pkg]?.onlyIn;
      if (onlyIn && !onlyIn.includes(own.name)) {
        findings.push(
          finding(
            'severe',
            'boundaries',
            file.path,
            `${file.path}:${ref.line} imports the package "${pkg}", which only ${onlyIn.join(', ')} may use (module ${own.name} may not).`,
          ),
        );
      }
    }
  }
  return findings;
}

/** "@scope/pkg/sub" → "@scope/pkg"; "pkg/sub" → "pkg"; "a.b" (Python) → "a". */
function packageName(spec: string): string {
  if (spec.startsWith('@')) return spec.split('/').slice(0, 2).join('/');
  return spec.split('/')[0]!.split('.')[0]!;
}

// ── Contract text in the product ─────────────────────────────────────────────

/** Words in a row that count as copied text: long enough that no two independent writers share them. */
export const SHINGLE_WORDS = 12;

const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** FNV-1a of one word. */
function wordHash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * One number per run of SHINGLE_WORDS words (two 32-bit mixes packed into 52 bits, exact in a
 * double): a hash map keyed by numbers instead of joined strings keeps a 230 KB contract to a few
 * tens of milliseconds. At that width a chance collision among a few hundred thousand runs is
 * vanishingly unlikely, and a finding quotes the words so a person can check it.
 */
function shingleKeys(words: string[]): number[] {
  const h = words.map(wordHash);
  const keys: number[] = [];
  for (let i = 0; i + SHINGLE_WORDS <= h.length; i++) {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let j = i; j < i + SHINGLE_WORDS; j++) {
      a = Math.imul(a ^ h[j]!, 0x01000193);
      b = Math.imul(b ^ h[j]!, 0x5bd1e995);
      b ^= b >>> 15;
    }
    keys.push((a >>> 0) * 2 ** 21 + (b >>> 11));
  }
  return keys;
}

/**
 * The prose of a contract, in segments a copy could come from: markdown without its code blocks
 * (schemas and examples there are meant to be implemented, so matching them would flag the work
 * itself), paragraph by paragraph; for JSON and YAML contracts, their string values.
 */
function proseSegments(text: string): string[] {
  const t = text.trim();
  if (/^[{[]/.test(t)) {
    const data = safeJson(t);
    if (data !== null) return stringsIn(data);
  }
  if (/^[\w"'-][^\n]*:\s/.test(t) && !/^#/.test(t)) {
    try {
      const data = parseYaml(t) as unknown;
      if (data && typeof data === 'object') return stringsIn(data);
    } catch {
      // Not YAML after all: read it as prose.
    }
  }
  return t
    .replace(/\r\n?/g, '\n')
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '\n\n')
    .split(/\n\s*\n/);
}

function stringsIn(data: unknown): string[] {
  if (typeof data === 'string') return [data];
  if (Array.isArray(data)) return data.flatMap(stringsIn);
  if (data && typeof data === 'object') return Object.values(data).flatMap(stringsIn);
  return [];
}

/**
 * Files of the product that carry governance text. Two checks:
 * - a verbatim run of 12 or more words shared with a contract's prose (shingles of 12 words in a
 *   hash map, so a 230 KB phases file costs one pass) → severe, naming the contract and the run;
 * - a mention of `Forge/`, a forge tool name or "Forge contract(s)" → severe in a README (it is
 *   what users read and the seed's rule names READMEs), a warning elsewhere (a string such as a
 *   path may be legitimate; the auditor model and the user judge). Ignore files (.gitignore and
 *   friends) are skipped for mentions: keeping Forge/ out of version control is right.
 * The texts compared are Forge's contracts and the build's pinned spec documents (any format: a
 * spec-kit spec.md, a Kiro requirements.md …), given with `path`, their place in the project: that
 * file is the document itself, not a copy of it, so it is not checked against the documents.
 */
export function checkContractLeaks(workDir: string, contracts: GovernanceText[]): AuditFinding[] {
  const shingles = new Map<number, GovernanceText>();
  for (const c of contracts) {
    for (const seg of proseSegments(c.text)) {
      for (const key of shingleKeys(wordsOf(seg))) if (!shingles.has(key)) shingles.set(key, c);
    }
  }
  const own = new Set(contracts.flatMap((c) => (c.path ? [c.path.replace(/\\/g, '/')] : [])));
  const findings: AuditFinding[] = [];
  for (const file of projectTextFiles(workDir)) {
    // A spec document is compared with nothing: spec-kit's plan.md quoting its spec.md is the package, not the product.
    if (!own.has(file.path) && !SPEC_TOOLING.test(file.path)) findings.push(...copiedRuns(file, shingles));
    findings.push(...mentions(file));
  }
  return findings;
}

/**
 * Where spec tools keep their own material: spec-kit's templates and scripts (`.specify/`), another
 * feature's folder (`specs/002-…/`, written from the same template as the pinned one), Kiro's and
 * OpenSpec's folders, Forge's own. Their shared boilerplate is the tool's, not a copy in the product.
 */
const SPEC_TOOLING = /^(?:\.specify|\.kiro|openspec)\/|^specs\/\d{3,}-[^/]+\//;

/** A text the product must not copy: a Forge contract (by name) or a pinned spec document (by its path in the project). */
export interface GovernanceText {
  name: string;
  text: string;
  /** For a spec document: its path relative to the project, `/` separators. */
  path?: string;
}

/** A build's pinned spec documents (ProjectStore.buildDocuments) as texts the product must not copy, each at its own path. */
export function pinnedDocumentTexts(documents: readonly { doc_id: string; content: string }[]): GovernanceText[] {
  return documents.map((d) => ({ name: d.doc_id, text: d.content, path: d.doc_id }));
}

function copiedRuns(file: ProjectFile, shingles: Map<number, GovernanceText>): AuditFinding[] {
  if (!shingles.size) return [];
  const w = wordsOf(file.text);
  const keys = shingleKeys(w);
  // Per contract: the longest run of consecutive matching shingles (start word, length in words).
  const best = new Map<GovernanceText, { start: number; words: number }>();
  let runStart = -1;
  let runContract: GovernanceText | undefined;
  const close = (end: number) => {
    if (runStart < 0) return;
    const words = end - runStart + SHINGLE_WORDS - 1;
    const prev = runContract ? best.get(runContract) : undefined;
    if (runContract && (!prev || words > prev.words)) best.set(runContract, { start: runStart, words });
    runStart = -1;
  };
  for (let i = 0; i < keys.length; i++) {
    const hit = shingles.get(keys[i]!);
    if (hit && runStart >= 0 && hit === runContract) continue;
    close(i);
    if (hit) {
      runStart = i;
      runContract = hit;
    }
  }
  close(keys.length);
  return [...best].map(([contract, run]) => {
    const quote = `"${w.slice(run.start, run.start + Math.min(run.words, 25)).join(' ')}${run.words > 25 ? ' …' : ''}"`;
    const message = contract.path
      ? `${file.path} repeats ${run.words} words verbatim from the spec document ${contract.path} (${quote}). The spec says what to build; write the product in your own words.`
      : `${file.path} repeats ${run.words} words verbatim from the ${contract.name} contract (${quote}). Governance text stays in Forge/; describe the product in your own words.`;
    return finding('severe', 'contract_text', file.path, message);
  });
}

const MENTIONS: { rx: RegExp; what: string }[] = [
  { rx: /(^|[^\w-])Forge\/(?:Contracts\b)?/, what: 'the Forge/ folder' },
  { rx: /\bforge_(?:get_\w+|list_contracts|scratchpad|summary|run_planner)\b/, what: 'a forge tool' },
  { rx: /\bForge\s+(?:governance\s+)?contracts?\b/i, what: 'the Forge contracts' },
];
const IGNORE_FILE = /(^|\/)\.\w*ignore$/;
const README = /(^|\/)readme(\.\w+)?$/i;

function mentions(file: ProjectFile): AuditFinding[] {
  if (IGNORE_FILE.test(file.path)) return [];
  const out: AuditFinding[] = [];
  const lines = file.text.split('\n');
  for (const m of MENTIONS) {
    const line = lines.findIndex((l) => m.rx.test(l));
    if (line < 0) continue;
    const readme = README.test(file.path);
    out.push(
      finding(
        readme ? 'severe' : 'warning',
        'contract_text',
        file.path,
        `${file.path}:${line + 1} mentions ${m.what} ("${lines[line]!.trim().slice(0, 120)}"). The product must not refer to Forge's governance${readme ? ', least of all in its README' : ''}.`,
      ),
    );
  }
  return out;
}

// ── Verdict ──────────────────────────────────────────────────────────────────

/** Any severe finding holds the phase back until it is fixed. */
export function blocksAdvance(findings: AuditFinding[]): boolean {
  return findings.some((f) => f.severity === 'severe');
}

const ORDER: Record<AuditFinding['severity'], number> = { severe: 0, warning: 1, info: 2 };

/** "2 severe, 1 warning" and one line per finding, severe first — for the log and the builder. */
export function summariseFindings(findings: AuditFinding[]): string {
  if (!findings.length) return 'Audit: no findings.';
  const counts = (['severe', 'warning', 'info'] as const)
    .map((s) => [s, findings.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s === 'warning' && n > 1 ? 'warnings' : s}`);
  const lines = [...findings]
    .sort((a, b) => ORDER[a.severity] - ORDER[b.severity])
    .map((f) => `- [${f.severity}] ${f.source}${f.file && !f.message.startsWith(f.file) ? ` ${f.file}` : ''}: ${f.message}`);
  return `Audit: ${counts.join(', ')}${blocksAdvance(findings) ? ' — the phase cannot advance until the severe ones are fixed' : ''}.\n${lines.join('\n')}`;
}
