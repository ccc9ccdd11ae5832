import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EventMessage } from '../api/events';
import { EnvSecretStore } from '../config/secrets';
import { SettingsFile } from '../config/settings-file';
import { openWorkspace } from '../fs';
import { startMockAnthropicServer } from '../llm/testing';
import { buildAnalyst, forgeDemoCli } from './analyst';
import { EventBus } from './events';
import { tempCore } from './testing';

describe('the offline demo from the CLI and the API', () => {
  it('`forge demo` prints a labelled scripted run: blocked by the guardrails, then a proposal awaiting approval', async () => {
    const lines: string[] = [];
    const code = await forgeDemoCli([], (l) => lines.push(l));
    const dir = /Workspace copy kept at (.+)$/.exec(lines.at(-1) ?? '')?.[1];
    try {
      expect(code).toBe(0);
      expect(lines[0]).toMatch(/^DEMO — scripted offline run/);
      const text = lines.join('\n');
      expect(text).toContain('✗ Not written: /memory/expressions/new.md');
      expect(text).toContain('BLOCKED by guardrails');
      expect(text).toMatch(/✓ Written: \/memory\/expressions\/E-004\.md \(status proposed/);
      expect(text).toContain('analyst: DEMO summary');
    } finally {
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });

  it("agent/demo works without an API key, streams events marked demo, and leaves the PM's memory alone", async () => {
    const t = tempCore({});
    const events: EventMessage[] = [];
    t.core.context.events.subscribe((m) => events.push(m));
    try {
      await t.core.context.memory.ready;
      const r = await t.core.invoke('agent/demo', {});
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.demo).toBe(true);
      expect(r.value.dataDir).not.toBe(t.dataDir);
      const done = await new Promise<EventMessage>((resolve) => {
        const check = () => events.find((e) => e.event === 'agent/done' || e.event === 'agent/error');
        const hit = check();
        if (hit) return resolve(hit);
        const off = t.core.context.events.subscribe(() => {
          const h = check();
          if (h) {
            off();
            resolve(h);
          }
        });
      });
      expect(done.event).toBe('agent/done');
      expect(done.payload).toMatchObject({ demo: true, stop: 'answered', runId: r.value.runId });
      expect(t.core.context.memory.fs.exists('/memory/expressions/E-004.md')).toBe(false);
      rmSync(r.value.dataDir, { recursive: true, force: true });
    } finally {
      await t.dispose();
    }
  });
});

describe('model timeouts', () => {
  it('a model that never sends its first byte times out by policy, is retried, then surfaces as agent/error with nothing written', async () => {
    const mock = await startMockAnthropicServer();
    const dir = mkdtempSync(join(tmpdir(), 'forge-timeout-'));
    const ws = openWorkspace({ dataDir: dir, bundledSkillsDir: null });
    const events = new EventBus();
    const seen: EventMessage[] = [];
    events.subscribe((m) => seen.push(m));
    const settings = new SettingsFile(dir);
    settings.update({ anthropicBaseUrl: mock.url });
    const service = buildAnalyst({
      fs: ws.fs,
      ready: ws.ready,
      dataDir: dir,
      settings,
      secrets: new EnvSecretStore({ ANTHROPIC_API_KEY: 'k' }),
      events,
      modelPolicy: { maxRetries: 1, timeoutMs: 1500 }, // long enough that a busy machine's request reaches the mock first
    });
    try {
      await ws.ready;
      const before = ws.store.audit.list({ limit: 1000 }).length;
      mock.enqueue({ fault: 'slow_first_byte', delayMs: 60_000 }, { fault: 'slow_first_byte', delayMs: 60_000 });
      const { runId } = await service.analyst.send({ message: 'hello' });
      const out = await service.analyst.wait(runId);
      expect(out.stop).toBe('failed');
      expect(out.error?.code).toBe('unavailable');
      expect(out.error?.message).toMatch(/time/i);
      expect(mock.messageRequests()).toHaveLength(2);
      const err = seen.find((m) => m.event === 'agent/error');
      expect(err?.payload).toMatchObject({ runId, code: 'unavailable' });
      expect(ws.store.audit.list({ limit: 1000 }).length).toBe(before);
    } finally {
      await service.close();
      ws.close();
      await mock.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
