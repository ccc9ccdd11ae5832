import { describe, expect, it } from 'vitest';
import {
  analystToolsOffered,
  annotationBadges,
  bearerOf,
  callTotals,
  checkSnippet,
  clientProjectLine,
  formatClock,
  formatMs,
  groupTools,
  isPreview,
  parseAttachChoice,
  pickSnippet,
  toolFamily,
  type McpSnippet,
  type McpTool,
} from './model';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const tool = (name: string, extra: Partial<McpTool> = {}): McpTool => ({
  name,
  description: `${name} does things`,
  annotations: READ,
  calls: 0,
  errors: 0,
  avgMs: 0,
  ...extra,
});

describe('tool families', () => {
  it('puts each governance tool under the heading a developer looks for', () => {
    expect(toolFamily('forge_get_contract')).toBe('governance');
    expect(toolFamily('forge_get_phase_window')).toBe('builder');
    expect(toolFamily('forge_clear_artifacts')).toBe('artifacts');
    expect(toolFamily('forge_get_build_contracts')).toBe('project');
    expect(toolFamily('forge_run_planner')).toBe('planner');
    expect(toolFamily('forge_something_new')).toBe('other');
  });

  it("shows the analyst's read and search under their own heading, never mixed with governance tools", () => {
    const groups = groupTools([tool('forge_summary'), tool('read'), tool('search'), tool('forge_scratchpad')]);
    expect(groups.map((g) => [g.key, g.tools.map((t) => t.name)])).toEqual([
      ['governance', ['forge_summary']],
      ['builder', ['forge_scratchpad']],
      ['analyst', ['read', 'search']],
    ]);
    expect(analystToolsOffered([tool('forge_summary'), tool('read')])).toEqual(['read']);
  });

  it('leaves out empty headings', () => {
    expect(groupTools([])).toEqual([]);
  });
});

describe('annotation badges', () => {
  it('marks a read-only tool as read-only and idempotent, not as writing', () => {
    expect(annotationBadges(READ).map((b) => b.key)).toEqual(['read-only', 'idempotent']);
  });

  it('warns that a destructive tool can delete, and that the planner reaches outside Forge', () => {
    const clear = annotationBadges({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    expect(clear.map((b) => [b.key, b.tone])).toEqual([['destructive', 'danger']]);
    const planner = annotationBadges({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(planner.map((b) => b.key)).toEqual(['writes', 'open-world']);
  });
});

describe('formatMs', () => {
  it('keeps sub-millisecond calls readable and long ones short', () => {
    expect(formatMs(0.4213)).toBe('0.42 ms');
    expect(formatMs(3.26)).toBe('3.3 ms');
    expect(formatMs(12.6)).toBe('13 ms');
    expect(formatMs(1534)).toBe('1.53 s');
    expect(formatMs(125_000)).toBe('2 min 5 s');
    expect(formatMs(Number.NaN)).toBe('—');
    expect(formatMs(-1)).toBe('—');
  });
});

describe('formatClock', () => {
  it('shows the local time with seconds, and a dash for a broken timestamp', () => {
    const d = new Date(2026, 10, 22, 9, 5, 7);
    expect(formatClock(d.toISOString())).toBe('09:05:07');
    expect(formatClock('not a date')).toBe('—');
  });
});

describe('callTotals', () => {
  it('adds calls and failures over every tool and names the busiest', () => {
    const t = callTotals([tool('a', { calls: 3, errors: 1 }), tool('b', { calls: 7 }), tool('c')]);
    expect(t).toEqual({ calls: 10, errors: 1, busiest: { name: 'b', calls: 7 } });
  });

  it('names no busiest tool before the first call', () => {
    expect(callTotals([tool('a')]).busiest).toBeNull();
  });
});

const snippet = (s: Partial<McpSnippet>): McpSnippet => ({ client: 'cursor', label: 'Cursor', transport: 'stdio', where: 'x', text: '{}', ...s });

describe('bearerOf', () => {
  const http = (token: string): McpSnippet[] => [
    snippet({ text: JSON.stringify({ mcpServers: { forge: { command: 'forge', args: ['mcp'] } } }) }),
    snippet({
      client: 'claude_desktop',
      transport: 'http',
      text: JSON.stringify(
        { mcpServers: { forge: { command: 'npx', args: ['mcp-remote', 'http://127.0.0.1:1/mcp', '--header', `Authorization:Bearer ${token}`] } } },
        null,
        2,
      ),
    }),
  ];

  it('reads the shortened token the HTTP snippets carry, without the closing quote', () => {
    expect(bearerOf(http('AbC1…x_9Z'))).toBe('AbC1…x_9Z');
    expect(isPreview('AbC1…x_9Z')).toBe(true);
  });

  it('reads the full token once revealed', () => {
    const token = 'Zq3-vB0yN4kz8WQy1fJ2mH7cR5tL6pD9sX0aE3uK1oI';
    expect(bearerOf(http(token))).toBe(token);
    expect(isPreview(token)).toBe(false);
  });

  it('finds the token in a Claude Code command too', () => {
    expect(
      bearerOf([
        snippet({
          client: 'claude_code',
          transport: 'http',
          text: 'claude mcp add --transport http forge http://x/mcp --header "Authorization: Bearer abcd…wxyz"',
        }),
      ]),
    ).toBe('abcd…wxyz');
  });

  it('has no token when HTTP is not running (stdio snippets only)', () => {
    expect(bearerOf([snippet({})])).toBeNull();
  });
});

describe('snippets', () => {
  it('picks the snippet for the chosen client and transport', () => {
    const list = [snippet({ client: 'vscode', transport: 'stdio', text: 'a' }), snippet({ client: 'vscode', transport: 'http', text: 'b' })];
    expect(pickSnippet(list, 'vscode', 'http')?.text).toBe('b');
    expect(pickSnippet(list, 'cursor', 'http')).toBeNull();
  });

  it('says whether a JSON snippet parses, and treats a shell command as a command', () => {
    expect(checkSnippet('{\n  "mcpServers": {}\n}')).toEqual({ kind: 'json', ok: true });
    const bad = checkSnippet('{ "mcpServers": ');
    expect(bad.kind === 'json' && !bad.ok && bad.message.length > 0).toBe(true);
    expect(checkSnippet('claude mcp add --transport stdio forge -- forge mcp')).toEqual({ kind: 'command' });
  });
});

describe('parseAttachChoice', () => {
  it('brings back the client and transport the PM chose last time', () => {
    expect(parseAttachChoice('{"client":"vscode","transport":"http"}')).toEqual({ client: 'vscode', transport: 'http' });
  });

  it('falls back to Claude Desktop over stdio for nothing, junk or an unknown client', () => {
    expect(parseAttachChoice(null)).toEqual({ client: 'claude_desktop', transport: 'stdio' });
    expect(parseAttachChoice('{oops')).toEqual({ client: 'claude_desktop', transport: 'stdio' });
    expect(parseAttachChoice('{"client":"zed","transport":"carrier-pigeon"}')).toEqual({ client: 'claude_desktop', transport: 'stdio' });
  });
});

describe('the project each connected client is on', () => {
  // Failing, the PM could not tell which repository an attached IDE's calls are about, or why its folder was not used.
  it('names the folder and its format, how the client came to it, or why its roots were not used', () => {
    expect(
      clientProjectLine({ project: { id: 'photo-albums', name: 'photo-albums', folder: '/home/me/photo-albums', via: 'roots', format: 'spec-kit' } }),
    ).toEqual({ text: "On photo-albums (spec-kit) — its IDE's open folder, /home/me/photo-albums", tone: 'plain' });
    expect(clientProjectLine({ project: { id: 'orders', name: 'orders', folder: '/srv/orders', via: 'path', format: 'kiro' } }).text).toBe(
      'On orders (Kiro) — a folder it named, /srv/orders',
    );
    expect(clientProjectLine({ project: { id: 'ledger', name: 'ledger', folder: null, via: 'forge', format: 'forge' } }).text).toBe(
      'On ledger (Forge) — a Forge project',
    );
    expect(clientProjectLine({ project: null, rootsError: 'The root file:///gone does not exist on this machine (/gone).' })).toEqual({
      text: 'No project: The root file:///gone does not exist on this machine (/gone).',
      tone: 'warn',
    });
    expect(clientProjectLine({}).text).toMatch(/^No project yet/);
  });
});
