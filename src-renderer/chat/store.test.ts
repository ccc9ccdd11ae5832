import { describe, expect, it } from 'vitest';
import type { EventMessage } from '../../src-main/api';
import { applyAgentEvent, emptyChat, runningTurn, startTurn, type ChatState } from './store';

const k = { runId: 'run_1', sessionId: 'sess_1' };
const ev = (event: string, payload: Record<string, unknown>) => ({ event, payload: { ...k, ...payload } }) as unknown as EventMessage;
const play = (s: ChatState, ...ms: EventMessage[]) => ms.reduce(applyAgentEvent, s);

describe('chat store', () => {
  it('shows streamed text, then the tool call with its result, then more text, in order', () => {
    let s = startTurn(emptyChat(), { ...k, prompt: 'Gross?', demo: false });
    s = play(
      s,
      ev('agent/text', { round: 1, text: 'Check' }),
      ev('agent/text', { round: 1, text: 'ing.' }),
      ev('agent/tool-call', { round: 1, callId: 'c1', name: 'read', input: { path: '/portfolio/state.md' } }),
      ev('agent/tool-result', { round: 1, callId: 'c1', name: 'read', content: 'gross: 142.5', isError: false, untrusted: false, durationMs: 2 }),
      ev('agent/text', { round: 2, text: '142.5%' }),
    );
    const t = s.turns[0]!;
    expect(t.prompt).toBe('Gross?');
    expect(t.parts.map((p) => (p.kind === 'text' ? p.text : `[${p.call.name}:${p.call.result?.content}]`))).toEqual([
      'Checking.',
      '[read:gross: 142.5]',
      '142.5%',
    ]);
    expect(runningTurn(s)?.runId).toBe('run_1');
  });

  it('drops the partial text of a round when the stream restarts, and keeps the failure with its request id', () => {
    let s = startTurn(emptyChat(), { ...k, prompt: 'x', demo: false });
    s = play(
      s,
      ev('agent/text', { round: 1, text: 'half an ans' }),
      ev('agent/text', { round: 1, text: '', reset: true }),
      ev('agent/error', { code: 'unavailable', message: 'Overloaded (request id req_9)', requestId: 'req_9' }),
    );
    expect(s.turns[0]!.parts).toEqual([]);
    expect(s.turns[0]!.status).toBe('failed');
    expect(s.turns[0]!.error?.requestId).toBe('req_9');
    expect(runningTurn(s)).toBeUndefined();
  });

  it('keeps the latest context meter and session usage, and marks demo runs', () => {
    const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 900, cacheWriteTokens: 0, costUsd: 0.01, cacheReadShare: 0.9 };
    let s = startTurn(emptyChat(), { ...k, prompt: 'demo', demo: true });
    s = play(
      s,
      ev('agent/usage', { round: 1, model: 'm', usage, context: { system: 900, tools: 1200, conversation: 50, total: 2150 }, session: usage }),
      ev('agent/done', { stop: 'answered', text: 'ok', rounds: 1, usage, demo: true }),
    );
    expect(s.context?.total).toBe(2150);
    expect(s.usage?.cacheReadShare).toBe(0.9);
    expect(s.turns[0]).toMatchObject({ status: 'answered', demo: true });
  });
});
