import type { BuildLogEntry } from '../../src-main/api/builds';

/**
 * The live log: entries pushed one by one (`builds/log`) merged with what `builds/get` returned,
 * and grouped for display so each tool call sits with its result.
 */

/** The most entries kept in the window; older ones are still in the build's record. */
export const LOG_CAP = 1000;

/**
 * Adds entries to a log ordered by `seq`: duplicates (an entry both pushed and re-read) are kept
 * once, out-of-order arrivals land in place, and only the newest `cap` survive.
 */
export function mergeLog(log: readonly BuildLogEntry[], incoming: readonly BuildLogEntry[], cap = LOG_CAP): BuildLogEntry[] {
  if (incoming.length === 0) return log as BuildLogEntry[];
  const last = log[log.length - 1];
  // The common case: one new entry after the last one.
  if (incoming.length === 1 && (!last || incoming[0]!.seq > last.seq)) {
    const out = [...log, incoming[0]!];
    return out.length > cap ? out.slice(out.length - cap) : out;
  }
  const bySeq = new Map<number, BuildLogEntry>();
  for (const e of log) bySeq.set(e.seq, e);
  for (const e of incoming) bySeq.set(e.seq, e);
  const out = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  return out.length > cap ? out.slice(out.length - cap) : out;
}

export type LogItem = { type: 'tool'; key: number; call: BuildLogEntry; result: BuildLogEntry | null } | { type: 'entry'; key: number; entry: BuildLogEntry };

/**
 * Pairs each tool result with the earliest call of the same tool still waiting for one (the
 * model may call several tools in one turn, and results come back in order), so a call and what
 * it returned read as one item. Results whose call fell off the top of the log stand alone.
 */
export function groupLog(log: readonly BuildLogEntry[]): LogItem[] {
  const items: LogItem[] = [];
  const waiting: Extract<LogItem, { type: 'tool' }>[] = [];
  for (const entry of log) {
    if (entry.kind === 'tool_call') {
      const item = { type: 'tool' as const, key: entry.seq, call: entry, result: null };
      items.push(item);
      waiting.push(item);
      continue;
    }
    if (entry.kind === 'tool_result') {
      const at = waiting.findIndex((w) => w.call.tool === entry.tool);
      if (at >= 0) {
        waiting[at]!.result = entry;
        waiting.splice(at, 1);
        continue;
      }
    }
    items.push({ type: 'entry', key: entry.seq, entry });
  }
  return items;
}

/** An entry to draw the eye to: a failed tool, an error, or a failing test run. */
export function isProblem(entry: BuildLogEntry): boolean {
  return entry.isError || entry.kind === 'error';
}

/** Words for each kind of log line, shown beside it. */
export const logKindLabel: Record<BuildLogEntry['kind'], string> = {
  text: 'builder',
  tool_call: 'tool',
  tool_result: 'result',
  marker: 'marker',
  gate: 'gate',
  tests: 'tests',
  audit: 'audit',
  compaction: 'compaction',
  status: 'status',
  user: 'you',
  error: 'error',
};

/**
 * Whether a scrolled box is at (or within `slack` pixels of) its bottom: the log follows new
 * entries only then, so a user reading further up is not yanked down.
 */
export function isNearBottom(box: { scrollTop: number; scrollHeight: number; clientHeight: number }, slack = 24): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight <= slack;
}

/** A call's arguments without the tool name around them ("write_file({…})" → "{…}"); the name is shown beside it. */
export function callArgs(call: Pick<BuildLogEntry, 'text' | 'tool'>): string {
  const prefix = `${call.tool ?? ''}(`;
  if (call.tool && call.text.startsWith(prefix)) {
    const inner = call.text.slice(prefix.length);
    return inner.endsWith(')') ? inner.slice(0, -1) : inner;
  }
  return call.text;
}

/** The first line of a long text, for a collapsed result ("12 lines" tells what is folded away). */
export function firstLine(text: string, max = 140): { head: string; more: number } {
  const lines = text.split('\n');
  const head = lines[0] ?? '';
  return { head: head.length > max ? `${head.slice(0, max)}…` : head, more: lines.length - 1 };
}
