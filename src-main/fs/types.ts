import { InvalidInputError } from '../common/errors';
import { checkActorClaim } from './write-authority';

/**
 * Who caused a write: the PM, the analyst, a sub-agent (with its task), the scheduler, the builder,
 * an MCP client, or the tracker (only through `trackerWriter`: see write-authority.ts).
 */
export type Actor = 'pm' | 'agent' | `subagent:${string}` | 'scheduler' | 'builder' | 'mcp' | 'tracker';

export interface WriteContext {
  actor: Actor;
  sessionId?: string;
  taskId?: string;
  /** Audit operation override (e.g. 'seed'); defaults to create/update. */
  operation?: string;
}

const ACTOR_RE = /^(pm|agent|scheduler|builder|mcp|tracker|subagent:[A-Za-z0-9_.:-]{1,80})$/;

export function checkWriteContext(ctx: WriteContext): void {
  if (!ctx || typeof ctx.actor !== 'string' || !ACTOR_RE.test(ctx.actor)) {
    throw new InvalidInputError(`Unknown writer "${String(ctx?.actor).slice(0, 40)}": use pm, agent, subagent:<task>, scheduler, builder or mcp.`);
  }
  checkActorClaim(ctx);
}

/** One line of a directory listing. */
export interface DirEntry {
  name: string;
  path: string;
  isDir: boolean;
  id: string | null;
  title: string;
  meta: string;
  status: string | null;
  updatedAt: string | null;
}

export interface Listing {
  path: string;
  entries: DirEntry[];
  /** Everything that matches; `entries` is one page of it. Memory listings count up to LIST_COUNT_CAP (words: up to the page). */
  total: number;
  /** True when more match than a memory listing counted: `total` is a lower bound ("more than"). */
  totalCapped?: boolean;
  limit: number;
  offset: number;
}

export interface ListOptions {
  limit?: number;
  offset?: number;
}

export const DEFAULT_LIST_LIMIT = 200;
export const MAX_LIST_LIMIT = 1000;

export interface WriteResult {
  /** The path actually written (new.md resolved to the assigned id). */
  path: string;
  id: string | null;
  created: boolean;
  /** Where the previous version was archived, if it was. */
  archivedTo: string | null;
  contentHash: string;
}

/** Typed columns of a memory record, for readers that want more than the text. */
export interface RecordInfo {
  id: string;
  category: string;
  title: string;
  status: string | null;
  confidence: number | null;
  weight: number | null;
  scope: string | null;
  viewId: string | null;
  createdAt: string;
  updatedAt: string;
  header: Record<string, unknown>;
  contentHash: string;
}

export interface ArchivedVersion {
  archivePath: string;
  archivedAt: string;
  contentHash: string;
  title: string;
  status: string | null;
  confidence: number | null;
}
