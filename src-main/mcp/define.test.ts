import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tools/define';
import { connect, fixture, textOf, type Fixture } from './__tests__/fixtures';
import { fromAnalystTool } from './define';
import type { GovernanceTool } from './tool-kit';

let f: Fixture;
beforeAll(() => {
  f = fixture();
});
afterAll(() => f.dispose());

const lookup = defineTool({
  name: 'read',
  description: 'Read a memory path.',
  input: z.object({ path: z.string() }).strict(),
  annotations: { readOnlyHint: true },
  run: (i: { path: string }, ctx: { notes: Record<string, string> }) =>
    i.path in ctx.notes ? { content: ctx.notes[i.path] } : { content: `Nothing at ${i.path}.`, isError: true },
});

describe("offering the analyst's tools to attached clients", () => {
  it('lists and runs a read-only analyst tool only while the toggle is on', async () => {
    let expose = false;
    const tool = fromAnalystTool(lookup, () => ({ notes: { '/memory/views/V-001.md': '# V-001 — Curve steepens' } })) as GovernanceTool;
    const c = await connect(f, { extraTools: () => (expose ? [tool] : []) });
    try {
      expect((await c.client.listTools()).tools.map((t) => t.name)).not.toContain('read');
      // Toggled off, the tool does not exist for the client: the protocol's unknown-tool error.
      await expect(c.client.callTool({ name: 'read', arguments: { path: '/x' } })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Unknown tool: read/),
      });
      expose = true;
      const listed = (await c.client.listTools()).tools.find((t) => t.name === 'read');
      expect(listed?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      expect(textOf(await c.client.callTool({ name: 'read', arguments: { path: '/memory/views/V-001.md' } }))).toBe('# V-001 — Curve steepens');
      const missing = await c.client.callTool({ name: 'read', arguments: { path: '/nope' } });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toBe('Nothing at /nope.');
    } finally {
      await c.close();
    }
  });

  it('refuses to offer a tool that writes', () => {
    const write = defineTool({
      name: 'write',
      description: 'Write memory.',
      input: z.object({ path: z.string() }),
      annotations: { readOnlyHint: false },
      run: () => ({ content: 'ok' }),
    });
    expect(() => fromAnalystTool(write, () => ({}))).toThrow(/not read-only/);
  });
});
