import { basename, join } from 'node:path';
import { docId, isDir, isFile, listDir, makeDocument, readText } from './markdown';
import { type PlanReading, splitNumberedList, splitPhaseHeadings } from './phases';
import type { SpecDocument, SpecPackage } from './types';

/** Plan file names, in the order they are preferred, matched in any case, at the root or in docs/. */
const PLAN_NAMES = ['plan.md', 'roadmap.md', 'phases.md'];
// Build output and test reports are not specs, even when they hold Markdown.
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', 'out', 'vendor', 'target', 'coverage', 'test-results', 'playwright-report']);

/**
 * The plan files of a folder: PLAN.md, ROADMAP.md, phases.md in any case, at the root or in docs/;
 * failing those, the shallowest ones anywhere in the package (`specs/PLAN.md`, `contracts/phases.md`).
 */
export function findPlanFiles(root: string): string[] {
  const out: string[] = [];
  for (const want of PLAN_NAMES) {
    for (const dir of [root, join(root, 'docs')]) {
      for (const name of listDir(dir)) if (name.toLowerCase() === want && isFile(join(dir, name))) out.push(join(dir, name));
    }
  }
  if (out.length) return out;
  const depth = (p: string) => p.split(/[\\/]/).length;
  return markdownFiles(root, 2)
    .filter((p) => PLAN_NAMES.includes(basename(p).toLowerCase()))
    .sort((a, b) => depth(a) - depth(b) || PLAN_NAMES.indexOf(basename(a).toLowerCase()) - PLAN_NAMES.indexOf(basename(b).toLowerCase()));
}

/** Markdown files of the package, recursively (hidden folders and build output skipped). */
export function markdownFiles(dir: string, depth = 4): string[] {
  if (depth < 0) return [];
  const out: string[] = [];
  for (const name of listDir(dir)) {
    if (name.startsWith('.') || SKIP_DIRS.has(name)) continue;
    const p = join(dir, name);
    if (isDir(p)) out.push(...markdownFiles(p, depth - 1));
    else if (/\.(md|markdown)$/i.test(name) && isFile(p)) out.push(p);
  }
  return out;
}

/** A plan's phases: `Phase N` headings, else numbered headings (`## 1. Name`), else a numbered list. */
export function readPlan(text: string, source: string): PlanReading {
  const byPhase = splitPhaseHeadings(text, source, 'phase');
  if (byPhase.phases.length) return byPhase;
  const byNumber = splitPhaseHeadings(text, source, 'numbered');
  if (byNumber.phases.length) return { ...byNumber, notUnderstood: [...byPhase.notUnderstood, ...byNumber.notUnderstood] };
  return { ...splitNumberedList(text, source), notUnderstood: byPhase.notUnderstood };
}

/**
 * A plain folder of Markdown specs with a phased plan. Every Markdown file is a document; the plan is
 * the first plan file that holds phases.
 */
export function readPlain(root: string): Omit<SpecPackage, 'format' | 'root'> {
  const notUnderstood: string[] = [];
  const planFiles = findPlanFiles(root);
  let chosen: { path: string; plan: PlanReading } | undefined;
  for (const path of planFiles) {
    const plan = readPlan(readText(path), docId(root, path));
    if (plan.phases.length) {
      chosen = { path, plan };
      break;
    }
    notUnderstood.push(
      `${docId(root, path)} has no phases I could read (expected "## Phase 1: name", "### Phase 1 - name", "## 1. name" or a numbered list of phases).`,
      ...plan.notUnderstood,
    );
  }
  if (!planFiles.length) notUnderstood.push('No plan was found (a PLAN.md, ROADMAP.md or phases.md), so the package has no phases.');
  const documents: SpecDocument[] = markdownFiles(root).map((p) => makeDocument(root, p, kindOf(p, chosen?.path)));
  if (chosen) {
    for (const other of planFiles.filter((p) => p !== chosen.path && readPlan(readText(p), '').phases.length)) {
      notUnderstood.push(`${docId(root, other)} also holds phases; ${docId(root, chosen.path)} was used as the plan.`);
    }
  }
  return {
    feature: null,
    documents,
    phases: chosen?.plan.phases ?? [],
    preamble: chosen?.plan.preamble ?? '',
    notUnderstood: [...notUnderstood, ...(chosen?.plan.notUnderstood ?? [])],
  };
}

function kindOf(path: string, planPath: string | undefined): string {
  if (path !== planPath) return 'doc';
  return basename(path).toLowerCase() === 'roadmap.md' ? 'roadmap' : 'plan';
}
