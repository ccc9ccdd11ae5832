import { z } from 'zod';
import type { TaskRecord } from '../executor';
import type { AnalystToolContext } from './context';
import { defineTool } from './define';
import type { TaskBoard } from './dispatch';

/** One task as the analyst reads it in a collect result (seed §3.5 `_format`). */
export function formatTask(r: TaskRecord): string {
  const v = r.validation;
  let header = `── ${r.id} (${r.status}`;
  if (v) header += ` | ${v.contrastive ? 'contrastive' : 'validated'}: ${v.verdict.toUpperCase()}`;
  header += ') ──';
  const lines: string[] = [];
  const retry = `dispatch(id='${r.id}-r1', retry_of='${r.id}')`;
  if (r.status === 'ok') {
    lines.push(r.summary || '(no summary)');
    if (r.resultPath) lines.push(`[full: ${r.resultPath}]`);
  } else if (r.status === 'failed') {
    lines.push(`FAILED: ${r.error ?? 'no reason recorded'}`);
    if (r.failure !== 'dependency') lines.push(`[retry: ${retry}]`);
  } else if (r.status === 'cancelled') {
    lines.push('CANCELLED.');
    lines.push(`[retry: ${retry}]`);
  } else {
    lines.push(`still ${r.status === 'waiting' ? `waiting on ${r.spec.dependsOn.join(', ')}` : r.status}`);
  }
  if (v?.counterargument) lines.push(`[counterargument: ${v.counterargument}]`);
  if (v?.feedback) lines.push(`[feedback: ${v.feedback}]`);
  if (v && v.verdict !== 'pass' && r.status === 'ok') lines.push(`[retry with this feedback: ${retry}]`);
  return `${header}\n${lines.join('\n')}`;
}

function stillRunning(board: TaskBoard, sessionId: string): string | null {
  const pending = board.pendingCount(sessionId);
  if (!pending) return null;
  const open = board.list({ sessionId, status: ['queued', 'waiting', 'running', 'validating'], limit: 50 });
  const names = open.map((t) => `${t.id} ${t.status}`).join(', ');
  return `(${pending} task${pending === 1 ? '' : 's'} still running${names ? `: ${names}` : ''})`;
}

/** Seed §3.5: collect('<id>') waits for one task, 'ready' takes what is done, 'all' waits for everything. */
export function collectTool(board: TaskBoard) {
  return defineTool({
    name: 'collect',
    description:
      "Results of dispatched tasks: '<task id>' waits for it, 'ready' gives what finished since last time, 'all' waits for all. Status, verdict, summary; full output at /session/results/<id>.md.",
    input: z.object({ target: z.string().min(1).max(80) }),
    annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
    async run(input, ctx: AnalystToolContext) {
      const sessionId = ctx.fs.sessionId;
      let results: TaskRecord[];
      if (input.target === 'ready') {
        results = board.drainCompleted(sessionId);
        if (!results.length) return { content: ['No tasks completed yet.', stillRunning(board, sessionId)].filter(Boolean).join('\n') };
      } else if (input.target === 'all') {
        results = await board.waitAll(sessionId, ctx.signal);
        if (!results.length) return { content: 'No tasks have been dispatched in this session.' };
      } else {
        results = [await board.waitFor(sessionId, input.target, ctx.signal)];
        board.acknowledge(sessionId, [input.target]);
      }
      const parts = results.map(formatTask);
      const running = stillRunning(board, sessionId);
      if (running) parts.push(running);
      return { content: parts.join('\n\n') };
    },
  });
}
