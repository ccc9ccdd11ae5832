import { describe, expect, it, vi } from 'vitest';
import type { ModelCallRequest, ModelStreamEvent } from '../llm';
import { bundledDemoDir, DEMO_PACE, demoModel } from './demo';

const firstTurn = (signal?: AbortSignal): ModelCallRequest => ({
  role: 'agent',
  system: 'demo',
  messages: [{ role: 'user', content: 'Morning check (demo)' }],
  maxTokens: 1000,
  signal,
});

/** Streams the demo's first analyst turn; returns the text, when each chunk arrived (ms) and the total time. */
async function streamFirstTurn(speed: 'normal' | 'fast', signal?: AbortSignal) {
  const model = demoModel(bundledDemoDir(), speed);
  const t0 = performance.now();
  const at: number[] = [];
  let text = '';
  const result = await model.stream(firstTurn(signal), (e: ModelStreamEvent) => {
    if (e.type === 'text_delta') {
      text += e.text;
      at.push(performance.now() - t0);
    }
  });
  return { text, at, ms: performance.now() - t0, result };
}

describe('the demo pace', () => {
  it('streams at a reading pace at normal speed (about 50 characters a second, a pause before tool calls), not all at once', async () => {
    const { text, at, ms, result } = await streamFirstTurn('normal');
    expect(text).toBe('Starting with the rates View and the book before looking at data.');
    expect(result.toolCalls.map((c) => c.name)).toEqual(['read', 'read']);
    const textMs = (text.length / DEMO_PACE.normal.charsPerSecond) * 1000;
    // The text alone takes ~1.3 s to appear; the two tool calls add their pauses.
    expect(at.at(-1)!).toBeGreaterThan(textMs * 0.9);
    expect(ms).toBeGreaterThan(textMs + 2 * DEMO_PACE.normal.toolPauseMs * 0.9);
    expect(at.length).toBeGreaterThan(1);
  });

  it('streams at once at fast speed, so tests never wait', async () => {
    // Pacing is a timer per chunk; at fast speed not one timer with a delay may be set.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const { text } = await streamFirstTurn('fast');
      expect(text).toBe('Starting with the rates View and the book before looking at data.');
      expect(timers.mock.calls.filter(([, delay]) => Number(delay) > 0)).toEqual([]);
    } finally {
      timers.mockRestore();
    }
  });

  it('stops mid-stream when the run is cancelled, passing nothing more on', async () => {
    const { text: full } = await streamFirstTurn('fast');
    const controller = new AbortController();
    const model = demoModel(bundledDemoDir(), 'normal');
    let seen = '';
    const run = model.stream(firstTurn(controller.signal), (e: ModelStreamEvent) => {
      if (e.type !== 'text_delta') return;
      seen += e.text;
      controller.abort(); // Stop as soon as the first words show
    });
    await expect(run).rejects.toMatchObject({ kind: 'cancelled' });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(full.length);
  });
});
