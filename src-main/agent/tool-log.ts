import { sha256 } from '../fs';
import type { Store } from '../store';

/**
 * The analyst's tool calls, one JSON line each, kept in its session as `tool_log.jsonl`: what was
 * read, searched and fetched, and what each write or review answered (guardrail figures included).
 * Decision lineage (src-main/lineage) is built from it; without it a trace could only guess from
 * timestamps. Written straight to the session's file row, synchronously, after each result, so a
 * crash mid-run keeps every call that finished. Results are clipped: the log is evidence of what was
 * seen, not a second copy of every dataset.
 */

export const TOOL_LOG_FILE = 'tool_log.jsonl';
export const TOOL_LOG_RESULT_CHARS = 4000;

export interface ToolLogEntry {
  at: string;
  turn: number;
  round: number;
  name: string;
  input: Record<string, unknown>;
  isError: boolean;
  result: string;
}

export function appendToolLog(store: Store, sessionId: string, entry: ToolLogEntry): void {
  const clipped = entry.result.length > TOOL_LOG_RESULT_CHARS ? `${entry.result.slice(0, TOOL_LOG_RESULT_CHARS)}…` : entry.result;
  const line = `${JSON.stringify({ ...entry, result: clipped })}\n`;
  const existing = store.sessions.getFile(sessionId, TOOL_LOG_FILE)?.content ?? '';
  const content = existing + line;
  store.sessions.putFile(sessionId, TOOL_LOG_FILE, content, entry.at, sha256(content));
}

/** The session's logged tool calls in order; a damaged line is skipped, never fatal. */
export function readToolLog(store: Store, sessionId: string): ToolLogEntry[] | null {
  const file = store.sessions.getFile(sessionId, TOOL_LOG_FILE);
  if (!file) return null;
  const out: ToolLogEntry[] = [];
  for (const line of file.content.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as ToolLogEntry;
      if (typeof e.at === 'string' && typeof e.name === 'string') out.push(e);
    } catch {
      // A torn last line (a crash mid-write) loses that one call only.
    }
  }
  return out;
}
