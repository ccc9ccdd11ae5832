import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelError, ScriptDivergedError } from './errors';
import { ScriptedModel, loadScenario } from './scripted-model';
import type { ChatMessage, ModelStreamEvent } from './types';

const scenario = {
  name: 'morning-demo',
  turns: [
    {
      expect: { contains: 'overnight' },
      reply: { text: 'Let me read the active Views first.', toolCalls: [{ name: 'read', input: { path: '/memory/views/', query: 'status:active' } }] },
    },
    {
      expect: { toolResult: 'read', isError: false, contains: 'V-001' },
      reply: { text: 'V-001 (curve steepener) is still on track; nothing overnight changes it.' },
    },
  ],
};

function conversation(): ChatMessage[] {
  return [{ role: 'user', content: 'What changed overnight?' }];
}

describe('ScriptedModel', () => {
  it('replays the scripted turns in order, with tool calls the loop can answer', async () => {
    const m = new ScriptedModel(scenario);
    expect(m.id).toBe('scripted:morning-demo');
    expect(m.isScripted).toBe(true);
    const msgs = conversation();
    const first = await m.call({ system: 's', messages: msgs, maxTokens: 100 });
    expect(first.stopReason).toBe('tool_use');
    expect(first.toolCalls).toEqual([{ id: 'toolu_scripted_1_1', name: 'read', input: { path: '/memory/views/', query: 'status:active' } }]);
    msgs.push({ role: 'assistant', content: first.content });
    msgs.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_scripted_1_1', content: '# V-001 — Curve steepener\nstatus: active' }] });
    const second = await m.call({ system: 's', messages: msgs, maxTokens: 100 });
    expect(second.text).toBe('V-001 (curve steepener) is still on track; nothing overnight changes it.');
    expect(second.stopReason).toBe('end_turn');
    expect(second.usage.inputTokens).toBeGreaterThan(first.usage.inputTokens);
    expect(second.usage.costUsd).toBe(0);
    expect(m.finished).toBe(true);
  });

  it('streams the text in chunks that add up to the scripted reply', async () => {
    const m = new ScriptedModel(scenario, { chunkSize: 5 });
    const events: ModelStreamEvent[] = [];
    const r = await m.stream({ system: 's', messages: conversation(), maxTokens: 100 }, (e) => events.push(e));
    const texts = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : []));
    expect(texts.length).toBe(Math.ceil('Let me read the active Views first.'.length / 5));
    expect(texts.join('')).toBe(r.text);
    expect(events.some((e) => e.type === 'tool_call' && e.call.name === 'read')).toBe(true);
    expect(events[events.length - 1]!.type).toBe('done');
  });

  it('fails loudly, naming the turn, when the conversation does not contain what the script expects', async () => {
    const m = new ScriptedModel(scenario);
    const err = await m.call({ system: 's', messages: [{ role: 'user', content: 'Hello' }], maxTokens: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScriptDivergedError);
    expect((err as ScriptDivergedError).turn).toBe(1);
    expect((err as ScriptDivergedError).message).toContain('turn 1');
    expect((err as ScriptDivergedError).message).toContain('"overnight"');
  });

  it('fails loudly when a scripted tool call gets no result, or an unexpected one arrives', async () => {
    const m = new ScriptedModel(scenario);
    const msgs = conversation();
    const first = await m.call({ system: 's', messages: msgs, maxTokens: 100 });
    msgs.push({ role: 'assistant', content: first.content });
    msgs.push({ role: 'user', content: 'V-001 please' }); // the loop forgot to send the read result
    const err = (await m.call({ system: 's', messages: msgs, maxTokens: 100 }).catch((e: unknown) => e)) as ScriptDivergedError;
    expect(err).toBeInstanceOf(ScriptDivergedError);
    expect(err.turn).toBe(2);
    expect(err.mismatch).toContain('no tool result for read');

    const fresh = new ScriptedModel(scenario);
    const stray: ChatMessage[] = [{ role: 'user', content: [{ type: 'tool_result', toolUseId: 'toolu_x', content: 'overnight' }] }];
    const err2 = (await fresh.call({ system: 's', messages: stray, maxTokens: 10 }).catch((e: unknown) => e)) as ScriptDivergedError;
    expect(err2.mismatch).toContain('unexpected tool result for toolu_x');
  });

  it('fails loudly when a tool result is an error the script did not plan for', async () => {
    const m = new ScriptedModel(scenario);
    const msgs = conversation();
    const first = await m.call({ system: 's', messages: msgs, maxTokens: 100 });
    msgs.push({ role: 'assistant', content: first.content });
    msgs.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: first.toolCalls[0]!.id, content: 'V-001 not found', isError: true }] });
    const err = (await m.call({ system: 's', messages: msgs, maxTokens: 100 }).catch((e: unknown) => e)) as ScriptDivergedError;
    expect(err.turn).toBe(2);
    expect(err.mismatch).toContain('to be a success but it was an error');
  });

  it('fails loudly when called more times than the script has turns', async () => {
    const m = new ScriptedModel({ name: 'one', turns: [{ reply: { text: 'Only answer.' } }] });
    await m.call({ system: 's', messages: conversation(), maxTokens: 10 });
    const err = (await m.call({ system: 's', messages: conversation(), maxTokens: 10 }).catch((e: unknown) => e)) as ScriptDivergedError;
    expect(err).toBeInstanceOf(ScriptDivergedError);
    expect(err.message).toBe('Scripted scenario "one" diverged at turn 2: the script has 1 turn(s) but the model was called again');
  });

  it('checks the role a turn is meant for (e.g. a compact call)', async () => {
    const m = new ScriptedModel({ name: 'roles', turns: [{ expect: { role: 'compact' }, reply: { text: 'Summary.' } }] });
    const err = (await m.call({ role: 'agent', system: 's', messages: conversation(), maxTokens: 10 }).catch((e: unknown) => e)) as ScriptDivergedError;
    expect(err.mismatch).toContain('expected a call for role "compact" but got "agent"');
  });

  it('stops when the signal is aborted', async () => {
    const m = new ScriptedModel(scenario);
    const ac = new AbortController();
    ac.abort();
    const err = (await m.call({ system: 's', messages: conversation(), maxTokens: 10, signal: ac.signal }).catch((e: unknown) => e)) as ModelError;
    expect(err).toBeInstanceOf(ModelError);
    expect(err.code).toBe('cancelled');
    expect(m.turnsUsed).toBe(0);
  });

  it('loads a scenario file and names it after the file; a malformed file says which field is wrong', () => {
    const dir = mkdtempSync(join(tmpdir(), 'forge-scenario-'));
    const good = join(dir, 'rates-morning.json');
    writeFileSync(good, JSON.stringify({ turns: scenario.turns }));
    expect(new ScriptedModel(loadScenario(good)).id).toBe('scripted:rates-morning');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ turns: [{ reply: { txt: 'typo' } }] }));
    let caught: unknown;
    try {
      loadScenario(bad);
    } catch (e) {
      caught = e;
    }
    expect((caught as { code: string }).code).toBe('invalid_input');
    expect(JSON.stringify((caught as { issues: unknown }).issues)).toContain('reply');
  });
});
