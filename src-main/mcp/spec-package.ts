import { NotFoundError } from '../common/errors';
import type { SpecDocument, SpecPackage, SpecPhase } from '../specs/types';

/**
 * The governance tools' answers about a user's spec package (spec-kit, Kiro, OpenSpec, plain or
 * Forge's own layout): its documents briefed from their own text, any document by id, and any
 * phase by the plan's own id with the preamble the phase needs. Forge's descriptions of its own
 * contracts never appear here: the package describes the user's project.
 */

/** A phase window of a package: the phase, the next one for context, and the plan's preamble. */
export interface PackageWindow {
  /** The plan's own id of the phase asked for ("3.1", "1", "2"). */
  phase: string;
  name: string;
  format: SpecPackage['format'];
  total_phases: number;
  first_phase: string;
  last_phase: string;
  is_last: boolean;
  phases: { id: string; name: string; tasks: number }[];
  content: string;
}

/** Above this size the document a plan's phases come from is served only as windows. */
const WHOLE_PLAN_TOKENS = 2_000;

/**
 * The same phase id however the model wrote it: "1", 1 and "01" are one phase; "3.1" and "3.10"
 * are two (decimal ids are compared as written, never as numbers).
 */
export function samePhaseId(a: string | number, b: string | number): boolean {
  const x = String(a).trim();
  const y = String(b).trim();
  if (x === y) return true;
  return /^\d+$/.test(x) && /^\d+$/.test(y) && Number(x) === Number(y);
}

/**
 * A phase id as the plan writes it, from what a caller sent. A JSON number cannot keep how it was
 * written (3.10 and 3.1 are the same number), so a number is read in its shortest decimal form:
 * 3.1 → "3.1", 2 → "2"; a plan's "3.10" must be asked for as the string "3.10".
 */
export function phaseIdText(id: string | number): string {
  return typeof id === 'number' ? String(id) : id.trim();
}

export function findPhase(pkg: SpecPackage, id: string | number): SpecPhase | undefined {
  return pkg.phases.find((p) => samePhaseId(p.id, id));
}

/** "1, 2 and 3" / "3.1 to 3.5 (5 in all)": what the plan's phases are called, for error messages. */
export function phaseIdsText(pkg: SpecPackage): string {
  const ids = pkg.phases.map((p) => p.id);
  if (ids.length <= 6) return ids.map((i) => `"${i}"`).join(', ');
  return `"${ids[0]}" to "${ids.at(-1)}" (${ids.length} in all)`;
}

export function packageListing(pkg: SpecPackage): {
  format: SpecPackage['format'];
  feature: string | null;
  documents: { id: string; kind: string; title: string; brief: string; tokens: number }[];
} {
  return {
    format: pkg.format,
    feature: pkg.feature,
    documents: pkg.documents.map((d) => ({ id: d.id, kind: d.kind, title: d.title, brief: d.brief, tokens: d.tokens })),
  };
}

/**
 * A document by its id (the path in the package), or — when unambiguous — by its file name
 * without extension or its kind, so `forge_get_contract("plan")` or ("blueprint") finds it.
 */
export function findDocument(pkg: SpecPackage, name: string): SpecDocument | undefined {
  const want = name.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  const exact = pkg.documents.find((d) => d.id === want) ?? pkg.documents.find((d) => d.id.toLowerCase() === want.toLowerCase());
  if (exact) return exact;
  const lower = want.toLowerCase();
  const stem = (id: string) => (id.split('/').at(-1) ?? id).replace(/\.[^.]+$/, '').toLowerCase();
  const byStem = pkg.documents.filter((d) => stem(d.id) === lower);
  if (byStem.length === 1) return byStem[0];
  const byKind = pkg.documents.filter((d) => d.kind.toLowerCase() === lower);
  return byKind.length === 1 ? byKind[0] : undefined;
}

export function packageDocument(pkg: SpecPackage, name: string): string {
  const doc = findDocument(pkg, name);
  if (!doc) {
    const ids = pkg.documents.map((d) => d.id);
    throw new NotFoundError(
      `There is no document "${name.slice(0, 200)}" in this ${pkg.format} package. Its documents are: ${ids.slice(0, 30).join(', ')}${ids.length > 30 ? ` and ${ids.length - 30} more` : ''}. Call forge_list_contracts for their briefs.`,
    );
  }
  const planSource = pkg.phases.some((p) => p.source === doc.id);
  if (planSource && doc.tokens > WHOLE_PLAN_TOKENS) {
    throw new NotFoundError(
      `${doc.id} holds the plan (${pkg.phases.length} phases, ${doc.tokens} tokens) and is served one phase at a time: call forge_get_phase_window with the phase's id (${phaseIdsText(pkg)}).`,
    );
  }
  return doc.text;
}

/** That phase and the next (for context), after the plan's preamble; an unknown id names the ids that exist. */
export function packageWindow(pkg: SpecPackage, id: string | number): PackageWindow {
  if (!pkg.phases.length) {
    throw new NotFoundError(
      `This ${pkg.format} package has no phases Forge could read, so no phase window exists.${pkg.notUnderstood.length ? ` Not understood: ${pkg.notUnderstood.slice(0, 3).join(' ')}` : ''}`,
    );
  }
  const idx = pkg.phases.findIndex((p) => samePhaseId(p.id, id));
  if (idx < 0) {
    throw new NotFoundError(
      `There is no phase "${String(id).slice(0, 40)}" in this plan. Its phases are ${phaseIdsText(pkg)}: pass one of those ids as written.`,
    );
  }
  const window = pkg.phases.slice(idx, idx + 2);
  const isLast = idx === pkg.phases.length - 1;
  const footer = isLast ? '(This is the last phase.)' : '(The second phase above is shown for context only: build the first.)';
  const preamble = pkg.preamble.trim() ? `${pkg.preamble.trim()}\n\n` : '';
  const phase = pkg.phases[idx]!;
  return {
    phase: phase.id,
    name: phase.name,
    format: pkg.format,
    total_phases: pkg.phases.length,
    first_phase: pkg.phases[0]!.id,
    last_phase: pkg.phases.at(-1)!.id,
    is_last: isLast,
    phases: window.map((p) => ({ id: p.id, name: p.name, tasks: p.tasks.length })),
    content: `${preamble}${window.map((p) => p.text.trim()).join('\n\n')}\n\n${footer}`,
  };
}

/** forge_get_summary for a package: the user's project, its documents and its plan — nothing about Forge. */
export function packageSummary(pkg: SpecPackage, toolNames: string[]) {
  return {
    format: pkg.format,
    feature: pkg.feature,
    documents: packageListing(pkg).documents.map(({ id, title, brief, tokens }) => ({ id, title, brief, tokens })),
    phases: pkg.phases.map((p) => ({ id: p.id, name: p.name, tasks: p.tasks.length })),
    first_phase: pkg.phases[0]?.id ?? null,
    not_understood: pkg.notUnderstood,
    tools: toolNames,
  };
}
