import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGovernanceServer } from '../../mcp';
import { mcpStateFor } from '../handlers/mcp';
import { tempCore } from '../testing';

let t: ReturnType<typeof tempCore> | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

async function attach(core: ReturnType<typeof tempCore>['core']): Promise<Client> {
  const server = createGovernanceServer(mcpStateFor(core.context).service, { transport: 'memory' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'ide', version: '1' });
  await Promise.all([server.connect(b), client.connect(a)]);
  return client;
}

describe("the analyst's read and search offered to attached IDEs", () => {
  it('are absent by default, and when the PM turns them on an IDE can read memory but never write it', async () => {
    t = tempCore();
    await t.core.context.memory.ready;
    const before = await attach(t.core);
    const names = (await before.listTools()).tools.map((x) => x.name);
    expect(names).not.toContain('read');
    await before.close();

    const set = await t.core.invoke('mcp/set-options', { exposeAnalystTools: true });
    expect(set.ok).toBe(true);
    const client = await attach(t.core);
    const tools = (await client.listTools()).tools;
    const read = tools.find((x) => x.name === 'read');
    expect(read?.annotations?.readOnlyHint).toBe(true);
    expect(tools.some((x) => x.name === 'search')).toBe(true);
    expect(tools.some((x) => x.name === 'write')).toBe(false);
    const r = (await client.callTool({ name: 'read', arguments: { path: '/memory/views/V-001.md' } })) as { content: { text: string }[]; isError?: boolean };
    expect(r.isError).toBeFalsy();
    expect(r.content[0].text).toMatch(/^# V-001 — /);
    const bad = (await client.callTool({ name: 'read', arguments: { path: '/memory/../../etc/passwd' } })) as { isError?: boolean };
    expect(bad.isError).toBe(true);
    await client.close();
  });
});
