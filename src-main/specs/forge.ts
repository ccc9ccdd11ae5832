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
    documents.push(makeDocument(root, path, name.replace(/\.[^.]+$/, '').toLowerCase()));
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
