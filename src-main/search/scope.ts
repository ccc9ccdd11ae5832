import { InvalidInputError } from '../common/errors';
import { CATEGORIES, categoryInfo } from '../fs';

/** What a search scope covers: some memory categories, optionally only ids starting with a prefix. */
export interface SearchScope {
  path: string;
  /** null = every memory category. */
  category: string | null;
  idPrefix: string | null;
}

const folders = () => CATEGORIES.map((c) => `/memory/${c.name}/`).join(', ');

/** Parses a scope path prefix such as `/memory/`, `/memory/views/` or `/memory/views/V-01`. */
export function parseScope(input: string): SearchScope {
  const raw = typeof input === 'string' ? input.trim() : '';
  if (!raw) throw new InvalidInputError(`Say where to search, e.g. /memory/ or ${'/memory/views/'}.`);
  if (raw.length > 300 || raw.includes('\0') || raw.includes('..') || raw.includes('\\')) {
    throw new InvalidInputError(`"${raw.slice(0, 60)}" is not a search scope; use /memory/ or one of ${folders()}.`);
  }
  const parts = raw.split('/').filter(Boolean);
  if (parts[0] !== 'memory') {
    if (['skills', 'portfolio', 'session'].includes(parts[0] ?? '')) {
      throw new InvalidInputError(`Search covers memory (/memory/...). To look in /${parts[0]}/, list or read it instead.`);
    }
    throw new InvalidInputError(`"${raw.slice(0, 60)}" is not a search scope; use /memory/ or one of ${folders()}.`);
  }
  if (parts.length === 1) return { path: '/memory/', category: null, idPrefix: null };
  const category = parts[1];
  if (!categoryInfo(category)) {
    throw new InvalidInputError(`There is no memory folder "${category.slice(0, 40)}"; use /memory/ or one of ${folders()}.`);
  }
  if (parts.length === 2) return { path: `/memory/${category}/`, category, idPrefix: null };
  if (parts.length > 3) throw new InvalidInputError(`"${raw.slice(0, 60)}" is too deep; use a folder such as /memory/${category}/.`);
  const idPrefix = parts[2].replace(/\.md$/, '');
  if (!/^[A-Za-z0-9_.-]+$/.test(idPrefix)) throw new InvalidInputError(`"${parts[2].slice(0, 40)}" is not an id prefix such as V-01.`);
  return { path: `/memory/${category}/${parts[2]}`, category, idPrefix };
}
