/**
 * Copy-ready configuration for attaching an IDE, stdio and HTTP variants. The stdio variants run
 * `forge mcp` (the command an installed Forge puts on PATH); HTTP variants carry the current token.
 */

export interface ConfigSnippet {
  client: 'claude_desktop' | 'cursor' | 'vscode' | 'claude_code';
  label: string;
  transport: 'stdio' | 'http';
  /** Where the snippet goes, in words. */
  where: string;
  /** JSON or a shell command, ready to paste. */
  text: string;
}

export interface SnippetInput {
  /** The command that starts Forge's CLI, e.g. "forge" or "npx forge". */
  command?: string;
  /** Arguments before `mcp`, e.g. the path of bin/forge.mjs when the command is node itself. */
  prefixArgs?: string[];
  dataDir?: string;
  /** The HTTP endpoint (omit when HTTP is not running). */
  httpUrl?: string;
  token?: string;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

export function configSnippets(input: SnippetInput): ConfigSnippet[] {
  const command = input.command ?? 'forge';
  const args = [...(input.prefixArgs ?? []), 'mcp', ...(input.dataDir ? ['--data', input.dataDir] : [])];
  const stdio = { command, args };
  const headers = { Authorization: `Bearer ${input.token ?? '<token from the MCP screen>'}` };
  const out: ConfigSnippet[] = [
    {
      client: 'claude_desktop',
      label: 'Claude Desktop',
      transport: 'stdio',
      where: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
      text: json({ mcpServers: { forge: stdio } }),
    },
    {
      client: 'cursor',
      label: 'Cursor',
      transport: 'stdio',
      where: '.cursor/mcp.json in the project, or ~/.cursor/mcp.json',
      text: json({ mcpServers: { forge: stdio } }),
    },
    {
      client: 'vscode',
      label: 'VS Code',
      transport: 'stdio',
      where: '.vscode/mcp.json in the workspace',
      text: json({ servers: { forge: { type: 'stdio', ...stdio } } }),
    },
    {
      client: 'claude_code',
      label: 'Claude Code',
      transport: 'stdio',
      where: 'a terminal in the project folder',
      text: `claude mcp add --transport stdio forge -- ${[command, ...args].join(' ')}`,
    },
  ];
  if (input.httpUrl) {
    out.push(
      {
        client: 'claude_desktop',
        label: 'Claude Desktop',
        transport: 'http',
        where: 'claude_desktop_config.json (through the mcp-remote bridge)',
        text: json({ mcpServers: { forge: { command: 'npx', args: ['mcp-remote', input.httpUrl, '--header', `Authorization:${headers.Authorization}`] } } }),
      },
      {
        client: 'cursor',
        label: 'Cursor',
        transport: 'http',
        where: '.cursor/mcp.json',
        text: json({ mcpServers: { forge: { url: input.httpUrl, headers } } }),
      },
      {
        client: 'vscode',
        label: 'VS Code',
        transport: 'http',
        where: '.vscode/mcp.json',
        text: json({ servers: { forge: { type: 'http', url: input.httpUrl, headers } } }),
      },
      {
        client: 'claude_code',
        label: 'Claude Code',
        transport: 'http',
        where: 'a terminal',
        text: `claude mcp add --transport http forge ${input.httpUrl} --header "Authorization: ${headers.Authorization}"`,
      },
    );
  }
  return out;
}
