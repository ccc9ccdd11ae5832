import { join, resolve } from 'node:path';
import { InvalidInputError, isAppError, NotFoundError } from '../common/errors';
import { FORGE_CONTRACTS_DIR, readForge } from './forge';
import { isDir } from './markdown';
import { readKiro } from './kiro';
import { readOpenSpec } from './openspec';
import { findPlanFiles, markdownFiles, readPlain } from './plain';
import { readSpecKit, specKitFeatures } from './spec-kit';
import type { SpecFormat, SpecPackage } from './types';

export interface ReadSpecOptions {
  /** spec-kit feature (`003-photo-albums` or `003`), Kiro feature or OpenSpec change to read; default: see each format. */
  feature?: string;
  /** Read as this format even if another layout is also present. */
  format?: SpecFormat;
}

type Reading = Omit<SpecPackage, 'format' | 'root'>;

interface FormatProbe {
  format: SpecFormat;
  /** What of this format was found in the folder, or null when it is not there. */
  found(root: string): string | null;
  read(root: string, opts: ReadSpecOptions): Reading;
}

/**
 * The formats in the order they are preferred when a folder holds several: the most specific layout
 * first (a named tool folder beats a loose plan), Forge's own first so existing projects keep working.
 */
const PROBES: FormatProbe[] = [
  { format: 'forge', found: (r) => (isDir(join(r, FORGE_CONTRACTS_DIR)) ? 'Forge/Contracts/' : null), read: readForge },
  {
    format: 'spec-kit',
    found: (r) => {
      const features = specKitFeatures(r);
      if (features.length) return `specs/${features[features.length - 1]}/${isDir(join(r, '.specify')) ? ' and .specify/' : ''}`;
      return isDir(join(r, '.specify')) ? '.specify/' : null;
    },
    read: readSpecKit,
  },
  { format: 'kiro', found: (r) => (isDir(join(r, '.kiro', 'specs')) ? '.kiro/specs/' : null), read: readKiro },
  { format: 'openspec', found: (r) => (isDir(join(r, 'openspec', 'changes')) || isDir(join(r, 'openspec', 'specs')) ? 'openspec/' : null), read: readOpenSpec },
  {
    format: 'plain',
    found: (r) => {
      const plans = findPlanFiles(r);
      if (plans.length) return `a plan (${plans.map((p) => p.slice(r.length + 1).replace(/\\/g, '/')).join(', ')})`;
      return markdownFiles(r, 2).length ? 'Markdown documents' : null;
    },
    read: readPlain,
  },
];

/**
 * Read the spec package in `dir` as it is: detect its format (Forge, spec-kit, Kiro, OpenSpec or a
 * plain folder of Markdown with a plan), read every document, the phases with their tasks and the
 * preamble, and say in one sentence each what it saw but could not use. Never writes to `dir`.
 */
export function readSpecPackage(dir: string, opts: ReadSpecOptions = {}): SpecPackage {
  const root = resolve(dir);
  if (!isDir(root)) throw new NotFoundError(`There is no folder at ${root}; give the folder that holds your specs.`);
  const found = PROBES.map((p) => ({ probe: p, what: p.found(root) })).filter((f) => f.what !== null);
  let chosen = found[0];
  if (opts.format) {
    chosen = found.find((f) => f.probe.format === opts.format) ?? { probe: PROBES.find((p) => p.format === opts.format) as FormatProbe, what: 'asked for' };
    if (!chosen.probe) throw new InvalidInputError(`"${opts.format}" is not a spec format Forge reads (forge, spec-kit, kiro, openspec, plain).`);
  }
  if (!chosen) {
    throw new NotFoundError(
      `No spec package in ${root}: expected Forge/Contracts/, .specify/ with specs/<NNN-feature>/, .kiro/specs/, openspec/, or Markdown documents with a PLAN.md, ROADMAP.md or phases.md.`,
    );
  }
  let reading: Reading;
  try {
    reading = chosen.probe.read(root, opts);
  } catch (e) {
    if (isAppError(e)) throw e;
    // A file that exists but cannot be read (permissions, a device): one sentence, not a stack.
    throw new InvalidInputError(`Could not read the ${chosen.probe.format} package in ${root}: ${(e as Error).message}`);
  }
  const others = found.filter((f) => f !== chosen && f.what !== 'Markdown documents').map((f) => `${f.probe.format} (${f.what})`);
  const why = opts.format ? 'because it was asked for' : `because the folder has ${chosen.what}`;
  const detected = `Read as ${chosen.probe.format} ${why}${others.length ? `; also found ${others.join(', ')}, not read` : ''}.`;
  return { format: chosen.probe.format, root, ...reading, detected };
}
