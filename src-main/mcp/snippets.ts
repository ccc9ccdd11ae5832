/**
 * Copy-ready configuration for attaching an IDE, stdio and HTTP variants. The stdio variants start
 * this installation's stdio server (see `McpStdioLaunch`); HTTP variants carry the current token.
 */

/**
 * How an IDE starts Forge's stdio MCP server, which depends on how this Forge runs:
 * - `node`: a source checkout or npm install (`forge serve`, the dev app): `node bin/forge.mjs mcp`;
 * - `app`: the packaged desktop app, whose executable takes `--mcp` (bin/forge.mjs is not packaged,
 *   and with the runAsNode fuse off the app binary cannot run it as Node).
 * Built by whoever knows: the desktop shell for the app, the host for plain Node.
 */
export type McpStdioLaunch = { kind: 'node'; node: string; forgeScript: string } | { kind: 'app'; executable: string };

/** One line for a POSIX shell: arguments with spaces or quotes (macOS's "Application Support") are single-quoted. */
export function shellCommand(command: string, args: string[]): string {
  return [command, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(' ');
}

/** The command and arguments that start the stdio server for `dataDir`. */
export function mcpStdioCommand(launch: McpStdioLaunch, dataDir?: string): { command: string; args: string[] } {
  const data = dataDir ? ['--data', dataDir] : [];
  return launch.kind === 'app'
    ? { command: launch.executable, args: ['--mcp', ...data] }
    : { command: launch.node, args: [launch.forgeScript, 'mcp', ...data] };
}

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
  /** How this installation's stdio server starts. */
  launch: McpStdioLaunch;
  dataDir?: string;
  /** The HTTP endpoint (omit when HTTP is not running). */
  httpUrl?: string;
  token?: string;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

export function configSnippets(input: SnippetInput): ConfigSnippet[] {
  const stdio = mcpStdioCommand(input.launch, input.dataDir);
  const { command, args } = stdio;
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
      text: `claude mcp add --transport stdio forge -- ${shellCommand(command, args)}`,
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
