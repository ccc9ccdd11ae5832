import { sha256 } from '../fs';
import type { Model } from '../llm/types';
import type { Db } from '../store';
import type { NamedTool, SubAgentLoop } from './types';

export type ReviewVerdict = 'approve' | 'approve_with_notes' | 'revise' | 'escalate' | 'unclear';

export interface ReviewResult {
  verdict: ReviewVerdict;
  /** The reviewer's reasons (its whole answer after the verdict line, or the whole answer). */
  reasons: string;
  text: string;
  /** The key the review ledger stores this review under (see `reviewKey`). */
  contentKey: string;
  calibrationCategory: string | null;
  pkUsed: string[];
}

/** The reviewer's instructions: adversarial, investigative, specific. */
export const REVIEW_PROMPT = [
  'You review a proposed output for a discretionary macro portfolio manager before capital is committed.',
  "You did not write it and you do not share its author's context. Your job is to find what is wrong, missing or overconfident.",
  'Investigate with your tools: read() for memory (Views, Expressions, PK, calibration, the portfolio) and fetch() for market data. Check numbers, sizing against the risk limits, overlap with existing positions, and whether the invalidation conditions are concrete.',
  'Be specific: name what you would change and why.',
  'End with exactly one line: VERDICT: approve | approve_with_notes | revise | escalate',
  'Use revise when named changes are needed (say exactly which), escalate when the PM must decide (a limit, a conflict with an existing View, or missing data that matters).',
].join('\n');

export const CALIBRATION_CATEGORIES = ['macro_regime', 'relative_value', 'vol_surface', 'event_driven', 'flow_driven', 'thematic'] as const;

/**
 * The key a review is filed under: the reviewed text with whitespace folded and the record id in
 * a title line blanked (`# E-004 — x` and `# new — x` match), so the write tool finds the review of
 * the Expression it is about to write even after the id is assigned.
 */
export function reviewKey(content: string): string {
  const normal = content
    .replace(/\r\n/g, '\n')
    .replace(/^#\s+[A-Za-z0-9_.-]+\s+—\s+/m, '# ')
    .replace(/\s+/g, ' ')
    .trim();
  return sha256(normal);
}

export function parseReviewVerdict(text: string): { verdict: ReviewVerdict; reasons: string } {
  const matches = [...text.matchAll(/^[\s>*_#-]*VERDICT\s*[:：]\s*[*_]*\s*(approve_with_notes|approve with notes|approve|revise|escalate)\b/gim)];
  const last = matches[matches.length - 1];
  const verdict = last ? (last[1]!.toLowerCase().replace(/ /g, '_') as ReviewVerdict) : 'unclear';
  const reasons = (last ? text.slice(0, last.index) + text.slice(last.index! + last[0].length) : text).trim();
  return { verdict, reasons: reasons || '(no reasons given)' };
}

/** The reviews of a session, in SQLite, keyed by `reviewKey` of the reviewed text. */
export class ReviewLedger {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  record(sessionId: string, content: string, r: { verdict: ReviewVerdict; focus: string; reasons: string }): string {
    const k = reviewKey(content);
    this.db
      .prepare('INSERT INTO reviews (session_id, content_key, verdict, focus, reasons, at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(sessionId, k, r.verdict, r.focus, r.reasons.slice(0, 20_000), this.now().toISOString());
    return k;
  }

  /** The latest review of this exact content in the session, or null. */
  latest(sessionId: string, content: string): { verdict: ReviewVerdict; focus: string; reasons: string; at: string } | null {
    const row = this.db
      .prepare('SELECT verdict, focus, reasons, at FROM reviews WHERE session_id = ? AND content_key = ? ORDER BY seq DESC LIMIT 1')
      .get(sessionId, reviewKey(content)) as { verdict: ReviewVerdict; focus: string; reasons: string; at: string } | undefined;
    return row ?? null;
  }

  /**
   * The write tool's gate: may this agent-proposed Expression be offered to the PM? Yes only when
   * its latest review approved it (approve or approve_with_notes). The message says what to do.
   */
  approvalFor(sessionId: string, content: string): { approved: boolean; verdict: ReviewVerdict | null; message: string } {
    const r = this.latest(sessionId, content);
    if (!r)
      return {
        approved: false,
        verdict: null,
        message:
          'This Expression has not been reviewed. Call review(output=<the Expression text>, focus=...) first; it must approve before the PM can be asked.',
      };
    if (r.verdict === 'approve' || r.verdict === 'approve_with_notes')
      return { approved: true, verdict: r.verdict, message: `Reviewed at ${r.at}: ${r.verdict}.` };
    return {
      approved: false,
      verdict: r.verdict,
      message: `The latest review (${r.at}) said ${r.verdict}. Address its points, then review the revised Expression again.`,
    };
  }
}

export interface ReviewFiles {
  exists(path: string): boolean;
  readFile(path: string): string;
  readLines(path: string, start: number, end: number): string;
  listDir(path: string, query?: string, options?: { limit?: number }): { entries: { path: string; isDir: boolean }[] };
}

export interface ReviewerOptions<T extends NamedTool, C> {
  model: Model;
  runLoop: SubAgentLoop<T, C>;
  /** Read and fetch tools for the reviewer (anything else offered is dropped). */
  toolsFor: (grant: { sessionId: string; allowed: string[]; signal: AbortSignal }) => { tools: readonly T[]; context: C };
  ledger: ReviewLedger;
  maxRounds?: number;
  /** The book as the guardrails compute it (the host wires readBook); without it, the snapshot file. */
  portfolio?: () => string;
  /** The PM's calibration computed from resolved Outcomes and Counterfactuals, in the words its intervals allow, one line. */
  calibrationLine?: () => string;
}

/** The calibration file matching the output's category (first category named in it), or null. */
export function relevantCalibration(output: string, files: ReviewFiles): { category: string; text: string } | null {
  const lower = output.toLowerCase();
  for (const cat of CALIBRATION_CATEGORIES) {
    if (lower.includes(cat) || lower.includes(cat.replace('_', ' '))) {
      const p = `/memory/calibration/${cat}.md`;
      if (files.exists(p)) return { category: cat, text: files.readFile(p) };
    }
  }
  return null;
}

/** Headers of PK with weight ≥ 0.4 that share a word (> 3 letters) with the focus; at most five. */
export function relevantPk(focus: string, files: ReviewFiles): { id: string; header: string }[] {
  const words = focus
    .toLowerCase()
    .split(/[^a-z0-9_-]+/)
    .filter((w) => w.length > 3);
  if (!words.length || !files.exists('/memory/pk/')) return [];
  const out: { id: string; header: string }[] = [];
  for (const e of files.listDir('/memory/pk/', 'weight>=0.4', { limit: 500 }).entries) {
    if (e.isDir) continue;
    const header = files.readLines(e.path, 1, 8);
    const lower = header.toLowerCase().replace(/_/g, ' ');
    if (words.some((w) => lower.includes(w) || lower.includes(w.replace(/_/g, ' ')))) {
      out.push({ id: e.path.split('/').pop()!.replace(/\.md$/, ''), header });
      if (out.length === 5) break;
    }
  }
  return out;
}

/**
 * A fresh adversarial reviewer (seed §3.6): its own context (portfolio, matching calibration,
 * relevant PK — not the analyst's conversation), read and fetch tools, the review model role.
 * Every review is filed in the ledger.
 */
export class Reviewer<T extends NamedTool = NamedTool, C = unknown> {
  constructor(private readonly opts: ReviewerOptions<T, C>) {}

  private portfolioText(files: ReviewFiles): string {
    try {
      if (this.opts.portfolio) return this.opts.portfolio();
    } catch (e) {
      return `(the book cannot be computed: ${(e as Error).message})`;
    }
    return files.exists('/portfolio/state.md') ? files.readFile('/portfolio/state.md') : '(no portfolio state on file)';
  }

  private calibrationLine(): string | null {
    try {
      return this.opts.calibrationLine?.() ?? null;
    } catch {
      return null;
    }
  }

  async review(sessionId: string, output: string, focus: string, files: ReviewFiles, signal?: AbortSignal): Promise<ReviewResult> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const calibration = relevantCalibration(output, files);
      const pk = relevantPk(focus, files);
      const parts = [`OUTPUT TO REVIEW:\n${output}`, `REVIEW FOCUS:\n${focus}`];
      parts.push(`PORTFOLIO:\n${this.portfolioText(files)}`);
      const line = this.calibrationLine();
      if (line) parts.push(`CALIBRATION (all categories): ${line}`);
      if (calibration) parts.push(`CALIBRATION (${calibration.category}):\n${calibration.text}`);
      if (pk.length) parts.push(`PROCESS KNOWLEDGE:\n${pk.map((p) => p.header).join('\n---\n')}`);
      const allowed = ['read', 'fetch'];
      const made = this.opts.toolsFor({ sessionId, allowed, signal: controller.signal });
      const result = await this.opts.runLoop({
        model: this.opts.model,
        role: 'review',
        system: [{ text: REVIEW_PROMPT, stable: true }],
        messages: [{ role: 'user', content: parts.join('\n\n') }],
        tools: made.tools.filter((t) => allowed.includes(t.name)),
        toolContext: made.context,
        maxRounds: this.opts.maxRounds ?? 8,
        signal: controller.signal,
      });
      const { verdict, reasons } = parseReviewVerdict(result.text);
      const contentKey = this.opts.ledger.record(sessionId, output, { verdict, focus, reasons });
      return { verdict, reasons, text: result.text, contentKey, calibrationCategory: calibration?.category ?? null, pkUsed: pk.map((p) => p.id) };
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
