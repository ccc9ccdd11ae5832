import { join } from 'node:path';
import { inProgressLast, isDir, isFile, listDir, makeDocument, readText, walkFiles } from './markdown';
import { splitPhaseHeadings } from './phases';
import { chooseFeature } from './spec-kit';
import type { SpecDocument, SpecPackage } from './types';

const CHANGE_FILES: Record<string, string> = { 'proposal.md': 'proposal', 'design.md': 'design', 'tasks.md': 'tasks' };
const DELTA = /^##\s+(ADDED|MODIFIED|REMOVED|RENAMED)\s+Requirements\s*$/m;

/** Active changes of `openspec/changes/` (archive/ is history), the one being worked on last (see inProgressLast). */
export function openspecChanges(root: string): string[] {
  const dir = join(root, 'openspec', 'changes');
  return inProgressLast(
    dir,
    listDir(dir).filter((n) => n !== 'archive' && isDir(join(dir, n))),
  );
}

/**
 * OpenSpec: the project context (`openspec/project.md`, or `config.yaml` in newer versions), one
 * change (proposal, design, tasks and its delta specs) and the base specs those deltas touch. Phases
 * are the `## 1. Group` task groups of the change's tasks.md.
 */
export function readOpenSpec(root: string, opts: { feature?: string }): Omit<SpecPackage, 'format' | 'root'> {
  const documents: SpecDocument[] = [];
  const notUnderstood: string[] = [];
  const os = join(root, 'openspec');
  if (isFile(join(os, 'project.md'))) documents.push(makeDocument(root, join(os, 'project.md'), 'project'));
  if (isFile(join(os, 'config.yaml'))) {
    const doc = makeDocument(root, join(os, 'config.yaml'), 'project');
    doc.brief = doc.brief || contextBrief(doc.text);
    documents.push(doc);
  }
  // openspec/AGENTS.md is OpenSpec's own instructions to assistants, not the user's project: left out on purpose.
  const changes = openspecChanges(root);
  if (!changes.length) {
    notUnderstood.push('openspec/changes/ holds no active change (only archive/ or nothing), so there is nothing to build.');
    return { feature: null, documents, phases: [], preamble: '', notUnderstood, features: changes };
  }
  const change = chooseFeature(changes, opts.feature, 'openspec/changes/');
  const cdir = join(os, 'changes', change);
  const touched: string[] = [];
  for (const path of walkFiles(cdir)) {
    const rel = path.slice(cdir.length + 1).replace(/\\/g, '/');
    const delta = /^specs\/([^/]+)\/spec\.md$/.exec(rel);
    if (CHANGE_FILES[rel]) documents.push(makeDocument(root, path, CHANGE_FILES[rel]));
    else if (delta) {
      const doc = makeDocument(root, path, 'delta-spec');
      if (!DELTA.test(doc.text)) {
        notUnderstood.push(`${doc.id} has no "## ADDED|MODIFIED|REMOVED Requirements" section, so it was read as a whole spec, not as a delta.`);
      }
      documents.push(doc);
      touched.push(delta[1]);
    } else if (rel.endsWith('.md')) documents.push(makeDocument(root, path, 'doc'));
    else notUnderstood.push(`openspec/changes/${change}/${rel} is not an OpenSpec change document, so it was left out.`);
  }
  for (const cap of touched) {
    const base = join(os, 'specs', cap, 'spec.md');
    // A delta that adds a new capability has no base spec yet; that is normal, not a gap.
    if (isFile(base)) documents.push(makeDocument(root, base, 'base-spec'));
  }
  const tasksPath = join(cdir, 'tasks.md');
  if (!isFile(tasksPath)) {
    notUnderstood.push(`openspec/changes/${change}/ has no tasks.md, so it has no phases.`);
    return { feature: change, documents, phases: [], preamble: '', notUnderstood, features: changes };
  }
  const source = `openspec/changes/${change}/tasks.md`;
  const plan = splitPhaseHeadings(readText(tasksPath), source, 'numbered');
  if (!plan.phases.length) notUnderstood.push(`${source} has no "## 1. Group" task groups, so no phase could be read.`);
  return {
    feature: change,
    documents,
    phases: plan.phases,
    preamble: plan.preamble,
    notUnderstood: [...notUnderstood, ...plan.notUnderstood],
    features: changes,
  };
}

/** config.yaml's `context:` block is its prose: the first line of it says what the project is. */
function contextBrief(text: string): string {
  const m = /^context:\s*\|?\s*\n((?:[ \t]+.*\n?)+)/m.exec(text);
  if (!m) return '';
  return m[1]
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 3)
    .join(' ')
    .slice(0, 300);
}
