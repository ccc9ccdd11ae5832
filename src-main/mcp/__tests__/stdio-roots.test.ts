import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgePackageRoot } from '../config';
import { fixture, jsonOf, type Fixture } from './fixtures';
import { snapshot } from './packages';

/**
 * Claude Code and most IDEs start `forge mcp` as a child process over stdio and declare the
 * repository they have open as a root. Here a real `forge mcp` child is pointed at temp copies of
 * the repository's OpenSpec and plain example packages (resources/examples/specs/).
 */

const root = forgePackageRoot();
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const cli = join(root, 'src-main', 'host', 'cli.ts');
let f: Fixture;
let copies: string;

beforeAll(() => {
  f = fixture();
  copies = mkdtempSync(join(tmpdir(), 'forge-stdio-roots-'));
  for (const name of ['openspec', 'plain']) cpSync(join(root, 'resources', 'examples', 'specs', name), join(copies, `invoices-${name}`), { recursive: true });
});
afterAll(() => {
  f.dispose();
  rmSync(copies, { recursive: true, force: true });
});

describe('forge mcp over stdio with MCP roots', () => {
  it('serves the project tools from the OpenSpec folder the IDE has open, then follows it to another folder', async () => {
    // Failing, Claude Code in a repository keeping OpenSpec changes would get no project (or Forge's own plan) from forge mcp.
    const openspec = join(copies, 'invoices-openspec');
    const plain = join(copies, 'invoices-plain');
    const before = snapshot(openspec);
    const roots = [{ uri: pathToFileURL(openspec).href, name: 'invoices' }];
    const client = new Client({ name: 'claude-code-like', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots] }));
    const transport = new StdioClientTransport({
      command: tsx,
      args: [cli, 'mcp', '--contracts', f.contractsDir, '--data', f.dataDir],
      cwd: f.workDir,
      env: { PATH: process.env.PATH ?? '', HOME: f.root },
      stderr: 'pipe',
    });
    await client.connect(transport);
    try {
      const ctx = jsonOf<{ format: string; feature: string; phases: { id: string; name: string }[] }>(
        await client.callTool({ name: 'forge_get_project_context', arguments: {} }),
      );
      expect(ctx).toMatchObject({ format: 'openspec', feature: 'add-invoice-reminders' });
      expect(ctx.phases.map((p) => p.id)).toEqual(['1', '2']);
      const w = jsonOf<{ phases: { id: string }[]; is_last: boolean }>(
        await client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 2 } }),
      );
      expect(w).toMatchObject({ phases: [{ id: '2' }], is_last: true });
      const doc = jsonOf<{ content: string }>(
        await client.callTool({ name: 'forge_get_project_contract', arguments: { document: 'openspec/changes/add-invoice-reminders/proposal.md' } }),
      );
      expect(doc.content).toMatch(/reminder/i);

      roots.splice(0, 1, { uri: pathToFileURL(plain).href, name: 'invoices-plain' });
      await client.sendRootsListChanged();
      const next = jsonOf<{ format: string; folder: string }>(await client.callTool({ name: 'forge_get_project_context', arguments: {} }));
      expect(next).toMatchObject({ format: 'plain', folder: plain });
      expect(snapshot(openspec)).toBe(before);
    } finally {
      await client.close();
    }
  }, 90_000);
});
