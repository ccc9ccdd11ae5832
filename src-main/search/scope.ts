import { InvalidInputError } from '../common/errors';
import { CATEGORIES, categoryInfo } from '../fs';

/**
 * What a search covers: memory (some categories, optionally only ids starting with a prefix),
 * the current session's files (optionally one folder of them), the broker notes' passages
 * (optionally only notes whose path starts with a prefix), or all of them.
 */
export interface SearchScope {
  path: string;
  /** Whether memory records are searched. */
  memory: boolean;
  /** null = every memory category. */
  category: string | null;
  idPrefix: string | null;
  /** The current session's files under this folder ('' = all of them), or null when they are not searched. */
  sessionPrefix: string | null;
  /** Broker-note passages of notes whose path starts with this ('' = every note), or null when they are not searched. */
  researchPrefix: string | null;
}

/** The default scope (DESIGN: search covers memory and the current session's files). */
export const DEFAULT_SEARCH_SCOPE = 'all';
export const ALL_SCOPE_PATH = '/memory/ + /session/';

const folders = () => CATEGORIES.map((c) => `/memory/${c.name}/`).join(', ');
const hint = () =>
  `use all (memory, this session's files and broker notes), /memory/, session (this session's files only), research (broker notes only) or one of ${folders()}`;

/**
 * Parses a scope: `all` or `/` (memory, the current session's files and the broker notes — also
 * what an empty scope means), `session` or `/session/...` (the current session's files only),
 * `research` or `/research/<note prefix>` (broker-note passages only), or a memory path prefix such
 * as `/memory/`, `/memory/views/` or `/memory/views/V-01`.
 */
export function parseScope(input: string | null | undefined): SearchScope {
  const raw = typeof input === 'string' ? input.trim() : '';
  if (!raw || raw === '/' || raw.toLowerCase() === 'all')
    return { path: ALL_SCOPE_PATH, memory: true, category: null, idPrefix: null, sessionPrefix: '', researchPrefix: '' };
  if (raw.length > 300 || raw.includes('\0') || raw.includes('..') || raw.includes('\\')) {
    throw new InvalidInputError(`"${raw.slice(0, 60)}" is not a search scope; ${hint()}.`);
  }
  const parts = raw.split('/').filter(Boolean);
  if (parts[0]?.toLowerCase() === 'session') {
    const rest = parts.slice(1);
    if (rest.some((p) => !/^[A-Za-z0-9_.-]+$/.test(p))) throw new InvalidInputError(`"${raw.slice(0, 60)}" is not a session folder such as /session/results/.`);
    const prefix = rest.length ? `${rest.join('/')}${raw.endsWith('/') ? '/' : ''}` : '';
    return { path: `/session/${prefix}`, memory: false, category: null, idPrefix: null, sessionPrefix: prefix, researchPrefix: null };
  }
  if (parts[0]?.toLowerCase() === 'research') {
    // A note prefix is a path inside the research folder (file names may hold spaces); `..` and `\` were refused above.
    const prefix = parts.slice(1).join('/') + (parts.length > 1 && raw.endsWith('/') ? '/' : '');
    return { path: `/research/${prefix}`, memory: false, category: null, idPrefix: null, sessionPrefix: null, researchPrefix: prefix };
  }
  if (parts[0] !== 'memory') {
    if (['skills', 'portfolio'].includes(parts[0] ?? '')) {
      throw new InvalidInputError(`Search covers memory, this session's files and broker notes. To look in /${parts[0]}/, list or read it instead.`);
    }
    throw new InvalidInputError(`"${raw.slice(0, 60)}" is not a search scope; ${hint()}.`);
  }
  const memoryOnly = { memory: true, sessionPrefix: null, researchPrefix: null } as const;
  if (parts.length === 1) return { path: '/memory/', category: null, idPrefix: null, ...memoryOnly };
  const category = parts[1];
  if (!categoryInfo(category)) {
    throw new InvalidInputError(`There is no memory folder "${category.slice(0, 40)}"; use /memory/ or one of ${folders()}.`);
  }
  if (parts.length === 2) return { path: `/memory/${category}/`, category, idPrefix: null, ...memoryOnly };
  if (parts.length > 3) throw new InvalidInputError(`"${raw.slice(0, 60)}" is too deep; use a folder such as /memory/${category}/.`);
  const idPrefix = parts[2].replace(/\.md$/, '');
  if (!/^[A-Za-z0-9_.-]+$/.test(idPrefix)) throw new InvalidInputError(`"${parts[2].slice(0, 40)}" is not an id prefix such as V-01.`);
  return { path: `/memory/${category}/${parts[2]}`, category, idPrefix, ...memoryOnly };
}
