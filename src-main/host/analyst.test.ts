import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EventMessage } from '../api/events';
import { forgeDemoCli } from './analyst';
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

  it('agent/demo works without an API key, streams events marked demo, and leaves the PM\'s memory alone', async () => {
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
