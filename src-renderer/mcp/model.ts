import type { z } from 'zod';
import type { mcpCall, mcpClientProject, mcpSnippet, mcpToolInfo } from '../../src-main/api/mcp';

/** What the MCP screen shows, derived from `mcp/status`, `mcp/calls` and `mcp/config-snippets` — pure, so it is tested without a window. */

export type McpTool = z.infer<typeof mcpToolInfo>;
export type McpCall = z.infer<typeof mcpCall>;
export type McpSnippet = z.infer<typeof mcpSnippet>;
export type McpClientProject = z.infer<typeof mcpClientProject>;
export type SnippetClient = McpSnippet['client'];
export type SnippetTransport = McpSnippet['transport'];

export const clientOrder: SnippetClient[] = ['claude_desktop', 'cursor', 'vscode', 'claude_code'];

/** Families in the order a developer meets them: read the rules first, plan and build last. */
export const families = [
  { key: 'governance', label: 'Governance contracts' },
  { key: 'project', label: 'Project contracts' },
  { key: 'builder', label: 'Builder support' },
  { key: 'artifacts', label: 'Artifacts' },
  { key: 'session', label: 'Session' },
  { key: 'planner', label: 'Planner' },
  { key: 'analyst', label: "The analyst's tools (read-only)" },
  { key: 'other', label: 'Other tools' },
] as const;
export type Family = (typeof families)[number]['key'];

const familyOf: Record<string, Family> = {
  forge_get_governance: 'governance',
  forge_summary: 'governance',
  forge_get_summary: 'governance',
  forge_get_contract: 'governance',
  forge_list_contracts: 'governance',
  forge_get_invariants: 'governance',
  forge_store_artifact: 'artifacts',
  forge_get_artifact: 'artifacts',
  forge_list_artifacts: 'artifacts',
  forge_clear_artifacts: 'artifacts',
  forge_set_session: 'session',
  forge_clear_session: 'session',
  forge_get_project_context: 'project',
  forge_list_project_contracts: 'project',
  forge_get_project_contract: 'project',
  forge_get_build_contracts: 'project',
  forge_run_planner: 'planner',
  forge_get_phase_window: 'builder',
  forge_scratchpad: 'builder',
};

/** Tools without the `forge_` prefix are the analyst's, offered through the screen's toggle. */
export function toolFamily(name: string): Family {
  return familyOf[name] ?? (name.startsWith('forge_') ? 'other' : 'analyst');
}

export function groupTools(tools: McpTool[]): { key: Family; label: string; tools: McpTool[] }[] {
  return families.map((f) => ({ key: f.key, label: f.label, tools: tools.filter((t) => toolFamily(t.name) === f.key) })).filter((g) => g.tools.length > 0);
}

export function analystToolsOffered(tools: McpTool[]): string[] {
  return tools.filter((t) => toolFamily(t.name) === 'analyst').map((t) => t.name);
}

export interface Badge {
  key: string;
  label: string;
  tone: 'ok' | 'warn' | 'danger' | 'plain';
  /** What the hint promises a client, in words. */
  title: string;
}

/** MCP annotations as the badges a developer scans for: can it change anything, can it destroy, can it reach outside? */
export function annotationBadges(a: McpTool['annotations']): Badge[] {
  const out: Badge[] = [];
  if (a.readOnlyHint) out.push({ key: 'read-only', label: 'read-only', tone: 'ok', title: 'Reads only; never changes anything' });
  else if (a.destructiveHint) out.push({ key: 'destructive', label: 'destructive', tone: 'danger', title: 'Changes state and may delete what was stored' });
  else out.push({ key: 'writes', label: 'writes', tone: 'warn', title: 'Changes state, but deletes nothing' });
  if (a.idempotentHint)
    out.push({ key: 'idempotent', label: 'idempotent', tone: 'plain', title: 'Calling it again with the same input has no further effect' });
  if (a.openWorldHint) out.push({ key: 'open-world', label: 'open world', tone: 'warn', title: 'Reaches outside Forge (for the planner: a language model)' });
  return out;
}

/** 0.42 ms, 12 ms, 1.53 s — precise where it is small, short where it is large. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Clock time with seconds (local), for a log read while a client is working. */
export function formatClock(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return '—';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getHours())}:${p(t.getMinutes())}:${p(t.getSeconds())}`;
}

export interface CallTotals {
  calls: number;
  errors: number;
  /** The busiest tool, or null before the first call. */
  busiest: { name: string; calls: number } | null;
}

export function callTotals(tools: McpTool[]): CallTotals {
  let calls = 0;
  let errors = 0;
  let busiest: CallTotals['busiest'] = null;
  for (const t of tools) {
    calls += t.calls;
    errors += t.errors;
    if (t.calls > 0 && (!busiest || t.calls > busiest.calls)) busiest = { name: t.name, calls: t.calls };
  }
  return { calls, errors, busiest };
}

/**
 * The bearer token the HTTP snippets carry: the preview (`abcd…wxyz`) until the PM asks to reveal
 * it, then the token itself. Null when HTTP is not running (no HTTP snippets).
 */
export function bearerOf(snippets: McpSnippet[]): string | null {
  for (const s of snippets) {
    if (s.transport !== 'http') continue;
    const m = /Bearer ([^\s"]+)/.exec(s.text);
    if (m) return m[1]!;
  }
  return null;
}

export function isPreview(token: string): boolean {
  return token.includes('…');
}

export function pickSnippet(snippets: McpSnippet[], client: SnippetClient, transport: SnippetTransport): McpSnippet | null {
  return snippets.find((s) => s.client === client && s.transport === transport) ?? null;
}

export function clientLabel(snippets: McpSnippet[], client: SnippetClient): string {
  return snippets.find((s) => s.client === client)?.label ?? client;
}

export type SnippetCheck = { kind: 'json'; ok: true } | { kind: 'json'; ok: false; message: string } | { kind: 'command' };

/** JSON snippets are checked before the PM pastes them into a config file; shell commands are not JSON. */
export function checkSnippet(text: string): SnippetCheck {
  const t = text.trimStart();
  if (!t.startsWith('{')) return { kind: 'command' };
  try {
    JSON.parse(t);
    return { kind: 'json', ok: true };
  } catch (e) {
    return { kind: 'json', ok: false, message: (e as Error).message };
  }
}

/** Where a client's HTTP variant differs from stdio, in a sentence (shown under the tabs). */
export function transportNote(transport: SnippetTransport, httpRunning: boolean): string {
  if (transport === 'stdio') return 'The IDE starts its own forge mcp process and talks to it over stdin/stdout. Nothing to keep running; no token needed.';
  return httpRunning
    ? 'The IDE connects to this running Forge over loopback HTTP. Forge must be running, and the token goes with every request.'
    : 'The HTTP server is not running in this window, so only the stdio variants can be used.';
}

export interface AttachChoice {
  client: SnippetClient;
  transport: SnippetTransport;
}

export const defaultAttachChoice: AttachChoice = { client: 'claude_desktop', transport: 'stdio' };

/** The PM's last client and transport, read back from storage; anything unrecognised falls back to the default. */
export function parseAttachChoice(raw: string | null): AttachChoice {
  if (!raw) return defaultAttachChoice;
  try {
    const v = JSON.parse(raw) as Partial<AttachChoice>;
    const client = clientOrder.includes(v.client as SnippetClient) ? (v.client as SnippetClient) : defaultAttachChoice.client;
    const transport = v.transport === 'http' || v.transport === 'stdio' ? v.transport : defaultAttachChoice.transport;
    return { client, transport };
  } catch {
    return defaultAttachChoice;
  }
}

const formatNames: Record<string, string> = { 'spec-kit': 'spec-kit', kiro: 'Kiro', openspec: 'OpenSpec', plain: 'plain Markdown', forge: 'Forge' };

/**
 * The line under a connected client saying which project it is on: the folder its IDE has open
 * (MCP roots), one it named by path, or a Forge project; or why its roots could not be used.
 */
export function clientProjectLine(c: { project?: McpClientProject | null; rootsError?: string | null }): { text: string; tone: 'plain' | 'warn' } {
  const p = c.project;
  if (p) {
    const format = p.format ? (formatNames[p.format] ?? p.format) : null;
    const where = p.via === 'roots' ? "its IDE's open folder" : p.via === 'path' ? 'a folder it named' : 'a Forge project';
    return { text: `On ${p.name}${format ? ` (${format})` : ''} — ${where}${p.folder ? `, ${p.folder}` : ''}`, tone: 'plain' };
  }
  if (c.rootsError) return { text: `No project: ${c.rootsError}`, tone: 'warn' };
  return { text: 'No project yet: the client declared no folder and has not named one.', tone: 'plain' };
}
