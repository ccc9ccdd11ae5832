/**
 * What the MCP screen shows: calls per tool and the most recent calls with durations and errors.
 * Bounded, so a busy client cannot grow it without limit.
 */
export interface CallRecord {
  at: string;
  tool: string;
  transport: string;
  duration_ms: number;
  ok: boolean;
  error?: string;
  /** The project the call was about, when there was one (named, the session's, or the client's root folder). */
  project?: string;
}

export interface ToolStats {
  calls: number;
  errors: number;
  total_ms: number;
}

export class CallLog {
  private readonly recent: CallRecord[] = [];
  private readonly perTool = new Map<string, ToolStats>();

  constructor(private readonly capacity = 200) {}

  record(r: CallRecord): void {
    this.recent.push(r);
    if (this.recent.length > this.capacity) this.recent.splice(0, this.recent.length - this.capacity);
    const s = this.perTool.get(r.tool) ?? { calls: 0, errors: 0, total_ms: 0 };
    s.calls++;
    if (!r.ok) s.errors++;
    s.total_ms += r.duration_ms;
    this.perTool.set(r.tool, s);
  }

  /** Newest first. */
  list(limit = 50): CallRecord[] {
    return this.recent.slice(-limit).reverse();
  }

  stats(): Record<string, ToolStats> {
    return Object.fromEntries(this.perTool);
  }
}
