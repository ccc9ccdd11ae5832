import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../llm/types';
import { compactConversation, compactionDecision, contractsRead, conversationProblems, transcriptForSummary } from './compaction';

/** A build conversation: the first message, then `pairs` assistant tool calls each answered by its result. */
function buildConversation(pairs: number): ChatMessage[] {
  const calls: [string, Record<string, unknown>, string, boolean?][] = [
    ['forge_get_phase_window', { phase_number: 0 }, '## Phase 0 — Genesis …'],
    ['forge_get_contract', { name: 'blueprint' }, '# Blueprint — Ledger …'],
    ['forge_get_contract', { name: 'phases' }, 'Use forge_get_phase_window instead', true],
    ['forge_get_contract', { name: 'stack' }, '# Stack …'],
    ['forge_get_summary', {}, '{"contracts": []}'],
  ];
  const messages: ChatMessage[] = [{ role: 'user', content: '# Project: Ledger\n\nBegin Phase 0.' }];
  for (let i = 0; i < pairs; i++) {
    const [name, input, result, isError] = calls[i] ?? ['write_file', { path: `src/file${i}.ts`, content: 'x'.repeat(500) }, `wrote src/file${i}.ts`];
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${i}.` },
        { type: 'tool_use', id: `t${i}`, name, input },
      ],
    });
    messages.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: `t${i}`, content: result, isError }] });
  }
  return messages;
}

const textOfFirst = (m: ChatMessage) => (typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n'));

describe('compactConversation', () => {
  it('keeps the first message and the last 4, summarises the middle, and leaves a conversation the API accepts', async () => {
    const messages = buildConversation(15).slice(0, 30); // 30 messages: user, then assistant/user pairs
    expect(messages).toHaveLength(30);
    expect(conversationProblems(messages)).toEqual([]);
    let transcript = '';
    const r = await compactConversation(messages, {
      summarize: async (t) => {
        transcript = t;
        return 'Phase 0: scaffold written, tests not run yet.';
      },
    });
    // Message 26 is a tool_result: keeping it without its tool_use (message 25) would be refused, so 25 stays too.
    expect(r.removedCount).toBe(24);
    expect(r.messages).toHaveLength(1 + 5);
    expect(conversationProblems(r.messages)).toEqual([]);
    expect(r.messages.slice(-4)).toEqual(messages.slice(-4));
    expect(r.messages[1]).toEqual(messages[25]);
    const head = r.messages[0]!;
    expect(head.role).toBe('user');
    expect(Array.isArray(head.content) && head.content[0]).toEqual({ type: 'text', text: '# Project: Ledger\n\nBegin Phase 0.' });
    const summary = textOfFirst(head);
    expect(summary).toContain('[Forge — summary of earlier turns]');
    expect(summary).toContain('it is not a new request');
    expect(summary).toContain('Phase 0: scaffold written, tests not run yet.');
    expect(summary).toContain('Already read with the forge tools: phase window 0, blueprint, stack, forge_get_summary.');
    expect(summary).not.toMatch(/read with the forge tools:.*phases/);
    expect(summary).toContain('forge_get_contract');
    expect(r.contractsRead).toEqual(['phase window 0', 'blueprint', 'stack', 'forge_get_summary']);
    expect(transcript).toContain('BUILDER → forge_get_contract({"name":"blueprint"})');
    expect(transcript).not.toContain('Step 25.'); // the kept window is not summarised
  });

  it('remembers what a first compaction removed when compacting again', async () => {
    const once = await compactConversation(buildConversation(15), { summarize: async () => 'first summary' });
    const more = [...once.messages];
    for (let i = 100; i < 106; i++) {
      more.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${i}`, name: 'forge_get_contract', input: { name: i === 100 ? 'physics' : 'ui' } }] });
      more.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: `t${i}`, content: 'ok' }] });
    }
    let transcript = '';
    const twice = await compactConversation(more, {
      summarize: async (t) => {
        transcript = t;
        return 'second summary';
      },
    });
    expect(twice.contractsRead).toEqual(['phase window 0', 'blueprint', 'stack', 'forge_get_summary', 'physics', 'ui']);
    expect(transcript).toContain('EARLIER SUMMARY:');
    expect(transcript).toContain('first summary');
    const head = textOfFirst(twice.messages[0]!);
    expect(head.match(/\[Forge — summary of earlier turns\]/g)).toHaveLength(1);
    expect(head).toContain('second summary');
    expect(conversationProblems(twice.messages)).toEqual([]);
  });

  it('merges a reminder queued after a tool result into one user turn so roles still alternate', async () => {
    const messages = buildConversation(8);
    messages.push({ role: 'user', content: [{ type: 'text', text: 'You have not read the phase window yet.' }] });
    expect(conversationProblems(messages)).toContain('messages 16 and 17 are both from the user');
    const r = await compactConversation(messages, { summarize: async () => 's' });
    expect(conversationProblems(r.messages)).toEqual([]);
    const last = r.messages[r.messages.length - 1]!;
    expect(Array.isArray(last.content) && last.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
  });

  it('does nothing (and asks no model) when there is no middle to compact', async () => {
    const messages = buildConversation(2);
    let called = false;
    const r = await compactConversation(messages, {
      summarize: async () => {
        called = true;
        return 's';
      },
    });
    expect(r.removedCount).toBe(0);
    expect(r.messages).toBe(messages);
    expect(called).toBe(false);
  });

  it('leaves the conversation untouched when the summariser fails', async () => {
    const messages = buildConversation(10);
    const copy = structuredClone(messages);
    await expect(compactConversation(messages, { summarize: async () => Promise.reject(new Error('model unreachable')) })).rejects.toThrow('model unreachable');
    expect(messages).toEqual(copy);
  });

  it('falls back to the last tool calls when the summariser returns nothing', async () => {
    const r = await compactConversation(buildConversation(10), { summarize: async () => '  ' });
    expect(r.summary).toContain('No summary was written');
    expect(r.summary).toContain('write_file');
  });

  it('refuses a conversation that does not start with the user, as a typed error', async () => {
    await expect(compactConversation([{ role: 'assistant', content: 'hi' }], { summarize: async () => '' })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('contractsRead and transcriptForSummary', () => {
  it('does not count a contract whose fetch failed', () => {
    expect(contractsRead(buildConversation(3))).toEqual(['phase window 0', 'blueprint']);
  });

  it('renders each tool call as one line and clips long results', () => {
    const t = transcriptForSummary([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'write_file', input: { path: 'a.ts', content: 'y'.repeat(5000) } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'a', content: 'z'.repeat(5000), isError: true }] },
    ]);
    const [call, result] = t.split('\n');
    expect(call!.startsWith('BUILDER → write_file({"path":"a.ts"')).toBe(true);
    expect(call!.length).toBeLessThan(240);
    expect(result!.startsWith('  ← error: zzz')).toBe(true);
    expect(result!.length).toBeLessThan(320);
  });
});

describe('compactionDecision', () => {
  const base = { limitTokens: 100_000, share: 0.7 };
  it('does nothing below the share', () => {
    expect(compactionDecision({ ...base, conversationTokens: 69_000, atBoundary: true })).toBe('none');
  });
  it('compacts at a boundary once past the share, and waits for one mid-task', () => {
    expect(compactionDecision({ ...base, conversationTokens: 72_000, atBoundary: true })).toBe('now');
    expect(compactionDecision({ ...base, conversationTokens: 72_000, atBoundary: false })).toBe('wait');
  });
  it('stops waiting at the hard ceiling (share + 0.1 by default, or as given)', () => {
    expect(compactionDecision({ ...base, conversationTokens: 80_000, atBoundary: false })).toBe('now');
    expect(compactionDecision({ ...base, conversationTokens: 80_000, atBoundary: false, hardShare: 0.9 })).toBe('wait');
    expect(compactionDecision({ ...base, conversationTokens: 90_000, atBoundary: false, hardShare: 0.9 })).toBe('now');
  });
  it('rejects a nonsensical limit or share as a typed error', () => {
    expect(() => compactionDecision({ ...base, limitTokens: 0, conversationTokens: 1, atBoundary: true })).toThrow(/positive number/);
    expect(() => compactionDecision({ ...base, share: 1.5, conversationTokens: 1, atBoundary: true })).toThrow(/between 0 and 1/);
    expect(() => compactionDecision({ ...base, hardShare: 0.5, conversationTokens: 1, atBoundary: true })).toThrow(/must not be below/);
  });
});
