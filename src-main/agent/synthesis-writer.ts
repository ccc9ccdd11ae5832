import { isAppError } from '../common/errors';
import type { ReviewLedger, Reviewer, SynthesisWriter } from '../executor';
import type { ForgeFS, WriteContext } from '../fs';
import type { GuardrailLimits } from '../guardrails';
import { applyWrite, type WriteOutcome } from '../tools';

export interface SynthesisWriterOptions {
  fs: ForgeFS;
  limits: () => GuardrailLimits;
  /** The review ledger the analyst's write tool consults: the same gate for a synthesis. */
  reviews: Pick<ReviewLedger, 'approvalFor'>;
  /** The independent reviewer, run on a proposed Expression that passed the limits but was never reviewed. */
  reviewer: Pick<Reviewer, 'review'>;
  now?: () => Date;
}

/**
 * A synthesis task's memory updates, written as that sub-agent (`subagent:<task>`) through the
 * analyst's write pipeline: Expressions land `proposed`, the hard limits refuse a trade that breaks
 * them, and the review gate holds. A new Expression that passes the limits but has no review yet
 * goes to the same independent reviewer the analyst's review tool calls, then through the gate
 * again — so only reviewed text is offered to the PM, and no review is spent on a trade the
 * limits refuse anyway.
 */
export function synthesisWriter(o: SynthesisWriterOptions): SynthesisWriter {
  return async ({ sessionId, taskId, write, signal }) => {
    const writer: WriteContext = { actor: `subagent:${taskId}`, sessionId, taskId };
    let unreviewed = false;
    const attempt = (): Promise<WriteOutcome> =>
      applyWrite(o.fs, write.path, write.content, writer, {
        limits: o.limits(),
        now: o.now,
        review: (content) => {
          const gate = o.reviews.approvalFor(sessionId, content);
          unreviewed = !gate.approved && gate.verdict === null;
          return gate;
        },
      });
    try {
      let out = await attempt();
      if (!out.ok && unreviewed && write.kind === 'new_expression') {
        signal.throwIfAborted();
        const focus = `A synthesis (task ${taskId}) proposes this Expression: check sizing against the stop, overlap with live Expressions and whether its View supports it.`;
        await o.reviewer.review(sessionId, write.content, focus, o.fs.forSession(sessionId), signal);
        out = await attempt();
      }
      return { ok: out.ok, message: out.message, path: out.path, id: out.id, status: out.status };
    } catch (e) {
      // A record the pipeline cannot accept (malformed, outside memory) is a refusal to report, not a crash.
      if (isAppError(e) && e.code === 'invalid_input') return { ok: false, message: `Not written: ${write.path} — ${e.message}` };
      throw e;
    }
  };
}
