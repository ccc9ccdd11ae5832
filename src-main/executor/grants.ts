/** Read-only memory every sub-agent gets. */
export const SUBAGENT_BASE_TOOLS = ['read'] as const;
/** The only tools a skill's `allowed-tools` can add. Writing, dispatching and reviewing stay with the analyst. */
export const SUBAGENT_GRANTABLE = ['read', 'search', 'fetch', 'run_script'] as const;

/**
 * Which of a skill's allowed-tools a sub-agent actually gets, and which were refused.
 * `scriptsAllowedByPm`: the PM switched on this skill's scripts (Settings → Skills). Published
 * skills rarely list a tool for their scripts (Claude Code runs them through Bash), so the PM's
 * switch grants `run_script` itself — confinement still applies to every run.
 */
export function grantTools(allowedTools: readonly string[], options: { scriptsAllowedByPm?: boolean } = {}): { granted: string[]; refused: string[] } {
  const granted = new Set<string>(SUBAGENT_BASE_TOOLS);
  if (options.scriptsAllowedByPm) granted.add('run_script');
  const refused: string[] = [];
  for (const raw of allowedTools) {
    const name = raw
      .trim()
      .replace(/\(.*\)$/, '')
      .toLowerCase();
    if (!name) continue;
    if ((SUBAGENT_GRANTABLE as readonly string[]).includes(name)) granted.add(name);
    else refused.push(name);
  }
  return { granted: [...granted], refused };
}
