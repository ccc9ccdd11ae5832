import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgePackageRoot } from '../../mcp/config';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import type { Core } from '../core';
import { type HeadlessHost, startHeadlessHost } from '../http/server';
import { tempCore } from '../testing';
import { ok } from './answers';
import { seedDesk } from './desk-seed';

const PASSWORD = 'correct horse battery staple';

/**
 * A developer's IDE on a desk: the real `forge mcp --remote URL` process proxies to a real desk
 * server. Without FORGE_DESK_TOKEN its first call fails saying to set it to an API token from the
 * Desk screen; with dev1's token every call is made as dev1 (the desk's role check names dev1, the
 * token's "last used" moves); with the token revoked it says the token was refused. The token never
 * appears in what the process prints. If this failed, an IDE on a desk would be stuck at an
 * unexplained "refused the token", act as nobody, or leak the person's token into IDE logs.
 */
describe.skipIf(skipWithoutPostgres())('forge mcp --remote on a desk, as the person whose API token it carries', { timeout: 240_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let server: ReturnType<typeof tempCore>;
  let core: Core;
  let host: HeadlessHost;
  let session = '';
  const work = mkdtempSync(join(tmpdir(), 'forge-desk-mcp-'));

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    seedDesk(
      url,
      [
        { userId: 'rita', displayName: 'Rita', role: 'risk' },
        { userId: 'dev1', displayName: 'Dev One', role: 'analyst' },
      ],
      PASSWORD,
    );
    server = tempCore({}, { database: url });
    core = server.core;
    await core.context.memory.ready;
    host = await startHeadlessHost({ core, token: 'desk-mcp-remote-server-token-0123456789' });
    session = ok(await core.invoke('desk/sign-in', { userId: 'dev1', password: PASSWORD })).session;
  }, 120_000);
  afterAll(async () => {
    await host?.close();
    await server?.dispose();
    await workspaces?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** Runs the real `forge mcp --remote` as an IDE would spawn it, calls one tool, and returns its answer and everything it printed. */
  async function ide(tool: string, args: Record<string, unknown>, deskToken?: string): Promise<{ text: string; isError: boolean; stderr: string }> {
    const root = forgePackageRoot();
    const transport = new StdioClientTransport({
      command: join(root, 'node_modules', '.bin', 'tsx'),
      args: [join(root, 'src-main', 'host', 'cli.ts'), 'mcp', '--remote', host.url, '--data', join(work, 'data')],
      cwd: work,
      env: { PATH: process.env.PATH ?? '', HOME: work, FORGEGUARD_TOKEN: host.token, ...(deskToken ? { FORGE_DESK_TOKEN: deskToken } : {}) },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d) => {
      stderr += String(d);
    });
    const client = new Client({ name: 'desk-ide', version: '1.0.0' });
    try {
      await client.connect(transport);
      const r = (await client.callTool({ name: tool, arguments: args })) as { content: { text: string }[]; isError?: boolean };
      return { text: r.content.map((c) => c.text).join(''), isError: r.isError === true, stderr };
    } finally {
      await client.close();
    }
  }

  const tokenRow = async (tokenId: number) => ok(await core.invoke('desk/tokens', { session })).tokens.find((t) => t.tokenId === tokenId);

  it('without FORGE_DESK_TOKEN, says to set it to an API token from the Desk screen', async () => {
    const r = await ide('forge_summary', {});
    expect(r.isError).toBe(true);
    expect(r.text).toContain('FORGE_DESK_TOKEN');
    expect(r.text).toContain('Desk screen');
  });

  it("with dev1's API token, acts as dev1 and never prints the token", async () => {
    const issued = ok(await core.invoke('desk/issue-token', { session, label: 'laptop IDE' }));
    expect((await tokenRow(issued.tokenId))?.lastUsedAt).toBeNull();

    const summary = await ide('forge_summary', {}, issued.token);
    expect(summary.isError, summary.text).toBe(false);
    expect(summary.text).toContain('remote');
    // The desk's role check names the person the call was made as: an analyst may not run the planner.
    const planner = await ide('forge_run_planner', { project_request: 'A small ledger for the desk, in phases.' }, issued.token);
    expect(planner.isError).toBe(true);
    expect(planner.text).toContain('(dev1) may not call mcp/run-planner');
    expect((await tokenRow(issued.tokenId))?.lastUsedAt).not.toBeNull();
    for (const r of [summary, planner]) {
      expect(r.stderr).not.toContain(issued.token);
      expect(r.text).not.toContain(issued.token);
    }

    // Revoked: the next process is refused, told why, and still does not print the token.
    ok(await core.invoke('desk/revoke-token', { session, tokenId: issued.tokenId }));
    const revoked = await ide('forge_summary', {}, issued.token);
    expect(revoked.isError).toBe(true);
    expect(revoked.text).toMatch(/refused the API token in FORGE_DESK_TOKEN/);
    expect(revoked.text + revoked.stderr).not.toContain(issued.token);
  });
});
