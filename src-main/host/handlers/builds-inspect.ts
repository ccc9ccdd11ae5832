import { isAbsolute } from 'node:path';
import type { SpecInspection } from '../../api/builds';
import { InvalidInputError } from '../../common/errors';
import { readBuildPackage } from '../../builder';
import { describeSpecPackage, type SpecTask } from '../../specs';

const countTasks = (tasks: SpecTask[]): number => tasks.reduce((n, t) => n + 1 + countTasks(t.subtasks ?? []), 0);

/**
 * `builds/inspect`: what Forge would read in a folder before a build starts — the same reading as
 * `forge build --dry-run`, as data for the Builds screen. Read-only: the user's files are never
 * touched. A relative path is refused: the host's working directory means nothing to the PM.
 */
export function inspectSpecs(dir: string, feature?: string): SpecInspection {
  if (!isAbsolute(dir))
    throw new InvalidInputError(`"${dir.slice(0, 200)}" is not a full path; give the project folder's full path.`, [
      { path: ['dir'], message: 'Give the full path.' },
    ]);
  // Read as a build would read it: an unknown feature is bad input on that field, naming those there are.
  const pkg = readBuildPackage(dir, feature);
  return {
    dir: pkg.root,
    format: pkg.format,
    feature: pkg.feature,
    features: pkg.features ?? (pkg.feature ? [pkg.feature] : []),
    why: pkg.detected ?? null,
    documents: pkg.documents.map((d) => ({ id: d.id, kind: d.kind, title: d.title, tokens: d.tokens })),
    totalTokens: pkg.documents.reduce((n, d) => n + d.tokens, 0),
    phases: pkg.phases.map((p) => ({ id: p.id, name: p.name, tasks: countTasks(p.tasks), source: p.source })),
    preambleLines: pkg.preamble ? pkg.preamble.split('\n').length : 0,
    notUnderstood: pkg.notUnderstood,
    text: describeSpecPackage(pkg),
  };
}
