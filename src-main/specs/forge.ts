import { extname, join } from 'node:path';
import { splitPhaseHeadings } from './phases';
import { isFile, listDir, makeDocument, readText } from './markdown';
import type { SpecDocument, SpecPackage } from './types';

export const FORGE_CONTRACTS_DIR = join('Forge', 'Contracts');
const TEXT_EXT = new Set(['.md', '.markdown', '.yaml', '.yml', '.json', '.txt']);

/**
 * Forge's own layout: every file of `Forge/Contracts/` is a document (not only Forge's 15 names), its
 * kind the contract name (`phases`, `remediation`, …), its brief taken from its own text. Phases come
 * from phases.md (`## Phase N — name`).
 */
export function readForge(root: string): Omit<SpecPackage, 'format' | 'root'> {
  const dir = join(root, FORGE_CONTRACTS_DIR);
  const documents: SpecDocument[] = [];
  const notUnderstood: string[] = [];
  for (const name of listDir(dir)) {
    const path = join(dir, name);
    if (!isFile(path) || name.startsWith('.')) continue;
    if (!TEXT_EXT.has(extname(name).toLowerCase())) {
      notUnderstood.push(`Forge/Contracts/${name} is not a text document (Markdown, YAML, JSON), so it was left out.`);
      continue;
    }
    const doc = makeDocument(root, path, name.replace(/\.[^.]+$/, '').toLowerCase());
    if (!doc.brief || /\.(ya?ml|json)$/i.test(name)) doc.brief = structuredBrief(doc.text) || doc.brief;
    documents.push(doc);
  }
  const phasesPath = join(dir, 'phases.md');
  if (!isFile(phasesPath)) {
    notUnderstood.push('Forge/Contracts/ has no phases.md, so the package has no phases to build.');
    return { feature: null, documents, phases: [], preamble: '', notUnderstood };
  }
  const plan = splitPhaseHeadings(readText(phasesPath), 'Forge/Contracts/phases.md', 'phase');
  if (!plan.phases.length) notUnderstood.push('Forge/Contracts/phases.md has no "## Phase N — name" headings, so no phase could be read.');
  return { feature: null, documents, phases: plan.phases, preamble: plan.preamble, notUnderstood: [...notUnderstood, ...plan.notUnderstood] };
}

/** YAML and JSON say what they are in a leading comment or a `$comment`/`description` field. */
export function structuredBrief(text: string): string {
  const comment = /^\s*((?:#[^\n]*\n?)+)/.exec(text);
  if (comment) {
    return comment[1]
      .split('\n')
      .map((l) => l.replace(/^#\s?/, '').trim())
      .filter(Boolean)
      .join(' ')
      .slice(0, 300);
  }
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    for (const k of ['$comment', 'description', 'title']) if (typeof j[k] === 'string') return (j[k] as string).slice(0, 300);
    const info = j.info as Record<string, unknown> | undefined;
    if (info && typeof info.title === 'string') return `${info.title}${typeof info.description === 'string' ? `: ${info.description}` : ''}`.slice(0, 300);
  } catch {
    // Not JSON: a YAML file without a leading comment has no self-description to show.
  }
  return '';
}
