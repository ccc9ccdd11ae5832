import { describe, expect, it } from 'vitest';
import { configSnippets, mcpStdioCommand, shellCommand } from './snippets';

/**
 * The MCP screen's stdio snippets are pasted into an IDE's config as they are: if they name a
 * command this installation does not have, the IDE shows "server failed to start" and nothing more.
 */

const exe = '/Applications/Forge.app/Contents/MacOS/Forge';
const dataDir = '/Users/pm/Library/Application Support/Forge';

describe('stdio snippets', () => {
  it("a packaged app's snippets start its own executable with --mcp, never bin/forge.mjs (which is not packaged)", () => {
    const snippets = configSnippets({ launch: { kind: 'app', executable: exe }, dataDir });
    const stdio = snippets.filter((s) => s.transport === 'stdio');
    expect(stdio.map((s) => s.client)).toEqual(['claude_desktop', 'cursor', 'vscode', 'claude_code']);
    for (const s of stdio) expect(s.text).not.toContain('forge.mjs');
    expect(JSON.parse(stdio[0].text).mcpServers.forge).toEqual({ command: exe, args: ['--mcp', '--data', dataDir] });
    expect(JSON.parse(stdio[2].text).servers.forge).toEqual({ type: 'stdio', command: exe, args: ['--mcp', '--data', dataDir] });
    // The shell line quotes the macOS workspace folder (it has a space) so the path arrives whole.
    expect(stdio[3].text).toBe(`claude mcp add --transport stdio forge -- ${exe} --mcp --data '${dataDir}'`);
  });

  it('a source checkout or npm install starts node with bin/forge.mjs and the mcp command', () => {
    const launch = { kind: 'node', node: '/usr/bin/node', forgeScript: '/opt/forge/bin/forge.mjs' } as const;
    expect(mcpStdioCommand(launch, '/w')).toEqual({ command: '/usr/bin/node', args: ['/opt/forge/bin/forge.mjs', 'mcp', '--data', '/w'] });
    expect(JSON.parse(configSnippets({ launch })[1].text).mcpServers.forge).toEqual({ command: '/usr/bin/node', args: ['/opt/forge/bin/forge.mjs', 'mcp'] });
  });

  it('quotes shell arguments, including one with a single quote, so the pasted line runs what it shows', () => {
    expect(shellCommand('forge', ['--data', "/tmp/pm's data"])).toBe(`forge --data '/tmp/pm'\\''s data'`);
  });
});
