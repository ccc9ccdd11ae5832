import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from './anthropic-model';
import { toAnthropicParams } from './anthropic-request';
import type { ModelError } from './errors';
import { countContextTokens } from './tokens';
import type { ChatMessage, ContentBlock, ModelCallRequest, SystemBlock, ToolDefinition, Usage } from './types';
import { FIVE_MINUTES_MS, PromptCache, flattenPrompt } from './testing/prompt-cache';
import { startMockAnthropicServer } from './testing/mock-anthropic-server';
import type { MockAnthropicServer, MockStep, RecordedRequest } from './testing/mock-anthropic-server';

const KEY = 'sk-cache-test';
let now = 1_000_000;
let mock: MockAnthropicServer;

const tools: ToolDefinition[] = ['read', 'search', 'write'].map((name) => ({
  name,
  description: `The ${name} tool of the analyst: use it to ${name} memory records such as Views and Expressions.`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, query: { type: 'string' } }, required: ['path'] },
}));

const stablePrompt =
  'You are the analyst for a discretionary macro portfolio manager. You keep Views with scenarios, ' +
  'confidence and invalidation conditions, and Expressions that implement them under hard risk limits. '.repeat(1) +
  'Principles: check memory before answering; cite the records you used; never size a trade without its View. '.repeat(60);

/** The mock answers with a tool call on odd calls and plain text on even ones. */
function responder(r: RecordedRequest): MockStep {
  const n = (r.body.messages as unknown[]).length;
  return n % 4 === 1
    ? { text: 'Checking memory first.', toolCalls: [{ name: 'read', input: { path: `/memory/views/V-00${n % 9}.md` } }] }
    : { text: `Here is what the records say about turn ${n}: rates stay range-bound while growth slows and inflation eases.` };
}

function model() {
  return new AnthropicModel({ apiKey: () => KEY, env: {}, baseURL: mock.url, defaultModel: 'claude-sonnet-5-5', maxRetries: 0 });
}

/** Runs a 10-call conversation, answering tool calls, and returns each call's usage. */
async function tenCalls(system: (turn: number) => string | SystemBlock[]): Promise<Usage[]> {
  const m = model();
  const messages: ChatMessage[] = [{ role: 'user', content: 'Morning review: what changed overnight in rates?' }];
  const usages: Usage[] = [];
  for (let turn = 1; turn <= 10; turn++) {
    const r = await m.call({ system: system(turn), messages, tools, maxTokens: 512 });
    usages.push(r.usage);
    messages.push({ role: 'assistant', content: r.content });
    const next: ContentBlock[] = r.toolCalls.length
      ? r.toolCalls.map((c) => ({
          type: 'tool_result' as const,
          toolUseId: c.id,
          content: `# V-00${turn} — Rates range view\nstatus: active\nconfidence: 0.6`,
        }))
      : [{ type: 'text', text: `Follow-up ${turn}: and what does that mean for the steepener?` }];
    messages.push({ role: 'user', content: next });
    now += 30_000;
  }
  return usages;
}

function readShare(usages: Usage[]): number {
  const read = usages.reduce((n, u) => n + u.cacheReadTokens, 0);
  const all = usages.reduce((n, u) => n + u.cacheReadTokens + u.cacheWriteTokens + u.inputTokens, 0);
  return read / all;
}

beforeAll(async () => {
  mock = await startMockAnthropicServer({ apiKey: KEY, clock: () => now, responder });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.reset();
  mock.setResponder(responder);
});

describe('prompt caching against the mock', () => {
  it('a 10-call session with a stable prefix serves at least 90% of input from cache after the first call', async () => {
    const usages = await tenCalls(() => [
      { text: stablePrompt, stable: true },
      { text: 'SESSION s-42 · started 2026-11-21 07:00 ET · trigger: PM', stable: false },
    ]);
    expect(usages[0]!.cacheReadTokens).toBe(0);
    expect(usages[0]!.cacheWriteTokens).toBeGreaterThan(1024);
    for (const u of usages.slice(1)) expect(u.cacheReadTokens).toBeGreaterThan(0);
    const share = readShare(usages.slice(1));
    expect(share).toBeGreaterThanOrEqual(0.9);
    // Every request stayed within the API's four breakpoints.
    for (const r of mock.messageRequests()) expect(flattenPrompt(r.body).filter((b) => b.breakpoint).length).toBeLessThanOrEqual(4);
  });

  it('a clock at the top of the system prompt defeats the cache (the baseline the ordering rule avoids)', async () => {
    const usages = await tenCalls((turn) => `Current time: 2026-11-21T07:${String(turn).padStart(2, '0')}:00Z\n${stablePrompt}`);
    const share = readShare(usages.slice(1));
    expect(share).toBeLessThan(0.02);
  });

  it('puts breakpoints on the last tool, the end of the stable system prefix and the last two user messages', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'three' },
          { type: 'text', text: 'four' },
        ],
      },
      { role: 'assistant', content: 'five' },
      { role: 'user', content: 'six' },
    ];
    const p = toAnthropicParams(
      {
        system: [
          { text: 'a', stable: true },
          { text: 'b', stable: true },
          { text: 'now', stable: false },
        ],
        messages,
        tools,
        maxTokens: 10,
      },
      'm',
    );
    const marks = JSON.stringify(p).match(/cache_control/g) ?? [];
    expect(marks).toHaveLength(4);
    expect(p.tools!.map((t) => 'cache_control' in t)).toEqual([false, false, true]);
    expect((p.system as { cache_control?: unknown }[]).map((b) => b.cache_control !== undefined)).toEqual([false, true, false]);
    const content = p.messages.map((m) =>
      typeof m.content === 'string' ? 'plain' : m.content.map((b) => ('cache_control' in b && b.cache_control ? 'bp' : '-')).join(''),
    );
    expect(content).toEqual(['plain', 'plain', '-bp', 'plain', 'bp']);
  });

  it('drops empty text blocks the API would refuse when a model turn was only tool calls', () => {
    const p = toAnthropicParams(
      {
        system: 's',
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: '' },
              { type: 'tool_use', id: 't', name: 'read', input: {} },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 't', content: 'ok' }] },
        ],
        maxTokens: 8,
      },
      'm',
    );
    expect(p.messages[1]!.content).toEqual([{ type: 'tool_use', id: 't', name: 'read', input: {} }]);
  });

  it('a prefix below the minimum cacheable length is neither written nor read', async () => {
    const short = 'Keep answers short and cite the records you used. '.repeat(60); // ~600 tokens
    const req: ModelCallRequest = { system: [{ text: short, stable: true }], messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 };
    const m = model();
    const a = await m.call(req);
    const b = await m.call(req);
    expect(a.usage.cacheWriteTokens).toBe(0);
    expect(b.usage.cacheReadTokens).toBe(0);
    expect(b.usage.inputTokens).toBe(a.usage.inputTokens);
    // Haiku-class models need 2048 tokens: a ~1500-token prefix caches on Sonnet but not on Haiku.
    const mid = 'Keep answers short and cite the records you used. '.repeat(150);
    const midReq = { ...req, system: [{ text: mid, stable: true }] };
    const sonnet = await m.call({ ...midReq, model: 'claude-sonnet-5-5' });
    const haiku = await m.call({ ...midReq, model: 'claude-haiku-5-5' });
    expect(sonnet.usage.cacheWriteTokens).toBeGreaterThan(1024);
    expect(sonnet.usage.cacheWriteTokens).toBeLessThan(2048);
    expect(haiku.usage.cacheWriteTokens).toBe(0);
  });

  it('cache entries expire after 5 minutes without use, and each hit restarts the clock', async () => {
    const req: ModelCallRequest = { system: [{ text: stablePrompt, stable: true }], messages: [{ role: 'user', content: 'hi' }], maxTokens: 16 };
    const m = model();
    const first = await m.call(req);
    expect(first.usage.cacheWriteTokens).toBeGreaterThan(0);
    now += 4 * 60_000;
    expect((await m.call(req)).usage.cacheReadTokens).toBe(first.usage.cacheWriteTokens); // hit at 4 min refreshes
    now += 4 * 60_000;
    expect((await m.call(req)).usage.cacheReadTokens).toBe(first.usage.cacheWriteTokens); // 8 min after write, 4 after hit
    now += FIVE_MINUTES_MS + 1;
    const late = await m.call(req);
    expect(late.usage.cacheReadTokens).toBe(0);
    expect(late.usage.cacheWriteTokens).toBe(first.usage.cacheWriteTokens);
  });

  it('more than four cache breakpoints is refused as the API does', async () => {
    const blocks = [1, 2, 3, 4, 5].map((i) => ({ type: 'text', text: `part ${i}`, cache_control: { type: 'ephemeral' } }));
    const res = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 8, system: blocks, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('maximum of 4');
  });

  it('count_tokens on the mock agrees with the context meter for the same request', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'What is our rates view?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 't1', name: 'read', input: { path: '/memory/views/V-001.md' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: '# V-001 — Curve steepener\nconfidence: 0.65' }] },
    ];
    const req: ModelCallRequest = {
      system: [
        { text: stablePrompt, stable: true },
        { text: 'session', stable: false },
      ],
      messages,
      tools,
      maxTokens: 8,
    };
    const sdk = new Anthropic({ apiKey: KEY, baseURL: mock.url, maxRetries: 0 });
    const { max_tokens: _unused, ...body } = toAnthropicParams(req, 'claude-sonnet-5-5');
    const counted = await sdk.messages.countTokens(body as Anthropic.Messages.MessageCountTokensParams);
    expect(counted.input_tokens).toBe(countContextTokens(req).total);
  });

  it('the conversation breakpoint from the previous call is read even after a long tool round (past the 20-block lookback)', () => {
    const cache = new PromptCache(() => 0);
    const messages: ChatMessage[] = [{ role: 'user', content: stablePrompt }];
    const account = () =>
      cache.account('k', 'claude-sonnet-5-5', flattenPrompt(toAnthropicParams({ system: 'sys', messages, maxTokens: 8 }, 'claude-sonnet-5-5') as never));
    account();
    // One assistant turn with 15 tool calls and their 15 results: 30+ new blocks.
    const calls = Array.from({ length: 15 }, (_, i) => ({ type: 'tool_use' as const, id: `t${i}`, name: 'read', input: { path: `/memory/views/V-${i}.md` } }));
    messages.push({ role: 'assistant', content: calls });
    messages.push({ role: 'user', content: calls.map((c) => ({ type: 'tool_result' as const, toolUseId: c.id, content: 'ok' })) });
    const second = account();
    expect(second.cacheReadTokens).toBeGreaterThan(1024);
    // Without the breakpoint on the previous user message, the 20-block lookback alone would miss it.
    const onlyLast = new PromptCache(() => 0);
    const blocks = (msgs: ChatMessage[]) => flattenPrompt(toAnthropicParams({ system: 'sys', messages: msgs, maxTokens: 8 }, 'claude-sonnet-5-5') as never);
    onlyLast.account('k', 'claude-sonnet-5-5', blocks(messages.slice(0, 1)));
    const b = blocks(messages);
    const marks = b.flatMap((x, i) => (x.breakpoint ? [i] : []));
    const previousUser = marks[marks.length - 2]!;
    b[previousUser] = { ...b[previousUser]!, breakpoint: false };
    expect(onlyLast.account('k', 'claude-sonnet-5-5', b).cacheReadTokens).toBe(0);
  });

  it('a model error from a bad cache request surfaces as invalid input, not a crash', async () => {
    mock.enqueue({ fault: 'status', status: 400, errorType: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' });
    const err = (await model()
      .call({ system: 's', messages: [{ role: 'user', content: 'x' }], maxTokens: 8 })
      .catch((e: unknown) => e)) as ModelError;
    expect(err.code).toBe('invalid_input');
    expect(err.status).toBe(400);
    expect(err.retryable).toBe(false);
  });
});
