import { join } from 'node:path';
import type { McpStdioLaunch } from '../host';

/**
 * The desktop app as an IDE's stdio MCP server: `Forge --mcp [--data DIR] [forge mcp options]`.
 * A packaged app has no bin/forge.mjs and cannot run as Node (the runAsNode fuse is off), so its
 * own executable is the stdio entry point. Pure functions here; main.ts does the wiring.
 */

export const MCP_FLAG = '--mcp';

/** The `forge mcp` options after `--mcp` when the app was started as an MCP server, else null. */
export function mcpModeArgs(argv: readonly string[]): string[] | null {
  const at = argv.indexOf(MCP_FLAG);
  return at < 0 ? null : argv.slice(at + 1);
}

/** Without `--data`, the server serves the desktop app's own workspace (not `forge mcp`'s default ~/.forge). */
export function withAppWorkspace(args: string[], appDataDir: string): string[] {
  return args.some((a) => a === '--data' || a.startsWith('--data=')) ? args : ['--data', appDataDir, ...args];
}

/**
 * What the MCP screen's stdio snippets start. Packaged: the app's executable with `--mcp` — on Linux
 * the AppImage file itself (`$APPIMAGE`), since `process.execPath` points into a mount that changes
 * every start; on macOS `process.execPath` is already the binary inside Forge.app. Unpackaged (a
 * dev run): `node bin/forge.mjs mcp` from the checkout, since the Electron binary is not Node.
 */
export function appMcpLaunch(o: { packaged: boolean; execPath: string; appImage?: string; appRoot: string }): McpStdioLaunch {
  if (o.packaged) return { kind: 'app', executable: o.appImage || o.execPath };
  return { kind: 'node', node: 'node', forgeScript: join(o.appRoot, 'bin', 'forge.mjs') };
}

/** `Forge --mcp` on Windows: the app cannot read stdin there, so it says what to use instead. Returns the exit code. */
export function mcpUnavailableOnWindows(write: (text: string) => void = (t) => process.stderr.write(t)): number {
  write(
    'Forge --mcp: the Windows app cannot serve MCP on stdio (Electron gives it no standard input). ' +
      "With Forge open, attach over HTTP instead: the MCP screen's HTTP snippets.\n",
  );
  return 2;
}
