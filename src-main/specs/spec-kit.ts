import { extname, join } from 'node:path';
import { NotFoundError } from '../common/errors';
import { isDir, isFile, listDir, makeDocument, readText, walkFiles } from './markdown';
import { splitPhaseHeadings } from './phases';
import type { SpecDocument, SpecPackage } from './types';

/** spec-kit's own file names inside a feature folder, as kinds. */
const FEATURE_FILES: Record<string, string> = {
  'spec.md': 'spec',
  'plan.md': 'plan',
  'tasks.md': 'tasks',
  'research.md': 'research',
  'data-model.md': 'data-model',
  'quickstart.md': 'quickstart',
};
const CONTRACT_EXT = new Set(['.yaml', '.yml', '.json', '.md', '.graphql', '.proto']);

/** Feature folders under specs/ (`001-photo-albums`), numbered ones in number order. */
export function specKitFeatures(root: string): string[] {
  const dir = join(root, 'specs');
  return listDir(dir)
    .filter((n) => isDir(join(dir, n)) && (/^\d+-/.test(n) || isFile(join(dir, n, 'spec.md'))))
    .sort((a, b) => (Number.parseInt(a, 10) || 0) - (Number.parseInt(b, 10) || 0) || a.localeCompare(b, 'en'));
}

/** The feature asked for (`003-x` or `003`), else the highest-numbered one: the feature being worked on. */
export function chooseFeature(features: string[], asked: string | undefined, where: string): string {
  if (!asked) return features[features.length - 1];
  const hit = features.find((f) => f === asked) ?? features.find((f) => f.split('-')[0] === asked);
  if (!hit) throw new NotFoundError(`There is no "${asked}" in ${where}; it holds ${features.join(', ') || 'nothing'}.`);
  return hit;
}

/**
 * GitHub spec-kit: the constitution (`.specify/memory/`), one feature of `specs/` with its documents
 * and `contracts/`, phases from its tasks.md (`## Phase 3.1: Setup`, tasks `- [ ] T001 [P] …`).
 */
export function readSpecKit(root: string, opts: { feature?: string }): Omit<SpecPackage, 'format' | 'root'> {
  const documents: SpecDocument[] = [];
  const notUnderstood: string[] = [];
  // Early spec-kit releases kept the constitution in memory/ at the top; current ones in .specify/memory/.
  const memory = isDir(join(root, '.specify', 'memory')) ? join(root, '.specify', 'memory') : join(root, 'memory');
  for (const name of listDir(memory)) {
    const p = join(memory, name);
    if (isFile(p) && name.endsWith('.md')) documents.push(makeDocument(root, p, name === 'constitution.md' ? 'constitution' : 'doc'));
  }
  const features = specKitFeatures(root);
  if (!features.length) {
    notUnderstood.push('specs/ holds no feature folder (specs/001-name/ with spec.md), so there is nothing to build yet.');
    return { feature: null, documents, phases: [], preamble: '', notUnderstood, features };
  }
  const feature = chooseFeature(features, opts.feature, 'specs/');
  const fdir = join(root, 'specs', feature);
  for (const path of walkFiles(fdir)) {
    const rel = path.slice(fdir.length + 1).replace(/\\/g, '/');
    const ext = extname(path).toLowerCase();
    if (FEATURE_FILES[rel]) documents.push(makeDocument(root, path, FEATURE_FILES[rel]));
    else if (rel.startsWith('contracts/') && CONTRACT_EXT.has(ext)) documents.push(makeDocument(root, path, 'contract'));
    else if (rel.startsWith('checklists/') && ext === '.md') documents.push(makeDocument(root, path, 'checklist'));
    else if (ext === '.md') documents.push(makeDocument(root, path, 'doc'));
    else notUnderstood.push(`specs/${feature}/${rel} is not a document spec-kit defines, so it was left out.`);
  }
  const tasksPath = join(fdir, 'tasks.md');
  if (!isFile(tasksPath)) {
    notUnderstood.push(`specs/${feature}/ has no tasks.md yet (spec-kit's /tasks step writes it), so it has no phases.`);
    return { feature, documents, phases: [], preamble: '', notUnderstood, features };
  }
  const source = `specs/${feature}/tasks.md`;
  const plan = splitPhaseHeadings(readText(tasksPath), source, 'phase');
  if (!plan.phases.length) notUnderstood.push(`${source} has no "## Phase 3.1: name" headings, so no phase could be read.`);
  return { feature, documents, phases: plan.phases, preamble: plan.preamble, notUnderstood: [...notUnderstood, ...plan.notUnderstood], features };
}
