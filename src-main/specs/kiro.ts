import { join } from 'node:path';
import { fenceMask, inProgressLast, isDir, isFile, listDir, makeDocument, parseChecklist, readText } from './markdown';
import { chooseFeature } from './spec-kit';
import type { SpecDocument, SpecPackage, SpecPhase } from './types';

const KIRO_FILES: Record<string, string> = { 'requirements.md': 'requirements', 'design.md': 'design', 'tasks.md': 'tasks' };

/** Feature folders of `.kiro/specs/`, the one being worked on last (see inProgressLast). */
export function kiroFeatures(root: string): string[] {
  const dir = join(root, '.kiro', 'specs');
  // `_archived/` and the like hold finished features, not one to build (seen in public Kiro repositories).
  const names = listDir(dir).filter((n) => isDir(join(dir, n)) && !/^[_.]|^archived?$/i.test(n));
  return inProgressLast(dir, names);
}

/**
 * Kiro: steering documents and one feature of `.kiro/specs/` (requirements, design, tasks). Each
 * top-level checklist item of tasks.md (`- [ ] 1. Set up …`) is a phase; its nested items
 * (`- [ ] 1.1 …`) are the phase's tasks, with their `_Requirements: 1.2, 3.1_` references.
 */
export function readKiro(root: string, opts: { feature?: string }): Omit<SpecPackage, 'format' | 'root'> {
  const documents: SpecDocument[] = [];
  const notUnderstood: string[] = [];
  for (const name of listDir(join(root, '.kiro', 'steering'))) {
    const p = join(root, '.kiro', 'steering', name);
    if (isFile(p) && name.endsWith('.md')) documents.push(makeDocument(root, p, 'steering'));
  }
  const features = kiroFeatures(root);
  if (!features.length) {
    notUnderstood.push('.kiro/specs/ holds no feature folder, so there is nothing to build yet.');
    return { feature: null, documents, phases: [], preamble: '', notUnderstood, features };
  }
  const feature = chooseFeature(features, opts.feature, '.kiro/specs/');
  const fdir = join(root, '.kiro', 'specs', feature);
  for (const name of listDir(fdir)) {
    const p = join(fdir, name);
    if (!isFile(p)) continue;
    if (name.endsWith('.md')) documents.push(makeDocument(root, p, KIRO_FILES[name] ?? 'doc'));
    else notUnderstood.push(`.kiro/specs/${feature}/${name} is not a Kiro spec document, so it was left out.`);
  }
  const tasksPath = join(fdir, 'tasks.md');
  if (!isFile(tasksPath)) {
    notUnderstood.push(`.kiro/specs/${feature}/ has no tasks.md yet, so it has no phases.`);
    return { feature, documents, phases: [], preamble: '', notUnderstood, features };
  }
  const source = `.kiro/specs/${feature}/tasks.md`;
  const { phases, preamble } = kiroPhases(readText(tasksPath), source);
  if (!phases.length) notUnderstood.push(`${source} has no checklist items ("- [ ] 1. Set up …"), so no phase could be read.`);
  return { feature, documents, phases, preamble, notUnderstood, features };
}

/** Top-level checklist items as phases; the text before the first one is the preamble. */
export function kiroPhases(text: string, source: string): { phases: SpecPhase[]; preamble: string } {
  const lines = text.split('\n');
  const mask = fenceMask(lines);
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) if (!mask[i] && /^[-*+]\s+\[[ xX]\]\*?\s+/.test(lines[i])) starts.push(i);
  if (!starts.length) return { phases: [], preamble: text.trim() };
  const phases = starts.map((start, ordinal): SpecPhase => {
    const body = lines
      .slice(start, starts[ordinal + 1] ?? lines.length)
      .join('\n')
      .trimEnd();
    // An unnumbered item (`- [ ] Set up …`) is numbered by its position, from 1, and its sub-tasks after it.
    const [item] = parseChecklist(body, ordinal + 1);
    const { subtasks, ...own } = item;
    return { id: own.id, ordinal, name: own.text, tasks: subtasks?.length ? subtasks : [own], text: body, source };
  });
  return { phases, preamble: lines.slice(0, starts[0]).join('\n').trim() };
}
