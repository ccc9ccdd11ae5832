import type { z } from 'zod';
import type { Settings, settingsView } from '../../src-main/api';

type SettingsView = z.infer<typeof settingsView>;

/**
 * Settings → Builder: the draft the form edits (strings while typing), its checks and the
 * `settings.builder` object it saves. Pure, tested without a DOM.
 */

type BuilderSettings = NonNullable<Settings['builder']>;

/** The core's defaults for every builder field (settings/get → builderDefaults), shown when a field is unset. */
export type BuilderDefaults = SettingsView['builderDefaults'];

/** Programs that run any other program: allowing one defeats the allow-list, so the form says so. */
const OPENS_EVERYTHING = new Set(['bash', 'sh', 'zsh', 'fish', 'dash', 'env', 'xargs', 'sudo', 'su', 'nohup', 'timeout', 'find', 'curl', 'wget', 'rm', 'mv']);

export interface BuilderDraft {
  useMcpContracts: boolean;
  /** Follow Forge's default list (and its future changes) instead of a list of one's own. */
  useDefaultCommands: boolean;
  /** One program per line (commas and spaces also separate). */
  commands: string;
  contextLimitTokens: string;
  /** Percent of the limit, 20–95. */
  compactAtPercent: string;
}

export type BuilderField = 'commands' | 'contextLimitTokens' | 'compactAtPercent';

export function builderDraftFrom(b: Settings['builder'], defaults: BuilderDefaults): BuilderDraft {
  const own = b?.allowedCommands;
  return {
    useMcpContracts: b?.useMcpContracts ?? defaults.useMcpContracts,
    useDefaultCommands: own === undefined,
    commands: (own ?? defaults.allowedCommands).join('\n'),
    contextLimitTokens: String(b?.contextLimitTokens ?? defaults.contextLimitTokens),
    compactAtPercent: String(Math.round((b?.compactAtShare ?? defaults.compactAtShare) * 100)),
  };
}

export function sameBuilderDraft(a: BuilderDraft, b: BuilderDraft): boolean {
  return (
    a.useMcpContracts === b.useMcpContracts &&
    a.useDefaultCommands === b.useDefaultCommands &&
    (a.useDefaultCommands || parseCommands(a.commands).join('\n') === parseCommands(b.commands).join('\n')) &&
    a.contextLimitTokens.trim() === b.contextLimitTokens.trim() &&
    a.compactAtPercent.trim() === b.compactAtPercent.trim()
  );
}

/** The list as typed: split on lines, commas and spaces; blanks and repeats dropped, order kept. */
export function parseCommands(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(/[\s,]+/)) if (word && !out.includes(word)) out.push(word);
  return out;
}

/** Programs on the list that let the builder run anything at all (a warning, not an error). */
export function riskyCommands(commands: readonly string[]): string[] {
  return commands.filter((c) => OPENS_EVERYTHING.has(c));
}

/** "150000", "150,000", "150 000" and "150k" all read as 150000. */
function parseTokens(text: string): number | null {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/[,_\s]/g, '');
  const m = /^(\d+(?:\.\d+)?)(k)?$/.exec(t);
  if (!m) return null;
  const n = Number(m[1]) * (m[2] ? 1000 : 1);
  return Number.isFinite(n) ? Math.round(n) : null;
}

export function builderPatch(
  d: BuilderDraft,
): { builder: BuilderSettings; errors?: undefined } | { builder?: undefined; errors: Partial<Record<BuilderField, string>> } {
  const errors: Partial<Record<BuilderField, string>> = {};
  const builder: BuilderSettings = { useMcpContracts: d.useMcpContracts };

  if (!d.useDefaultCommands) {
    const commands = parseCommands(d.commands);
    const bad = commands.filter((c) => !/^[A-Za-z0-9._+-]+$/.test(c) || c.length > 60);
    if (commands.length === 0) errors.commands = 'List at least one program, or use the default list.';
    else if (bad.length) errors.commands = `Program names only, no paths or arguments: ${bad.slice(0, 3).join(', ')}${bad.length > 3 ? '…' : ''}.`;
    else if (commands.length > 100) errors.commands = `At most 100 programs (this list has ${commands.length}).`;
    else builder.allowedCommands = commands;
  }

  const limit = parseTokens(d.contextLimitTokens);
  if (limit === null) errors.contextLimitTokens = 'A number of tokens, e.g. 150000 or 150k.';
  else if (limit < 4000 || limit > 1_000_000) errors.contextLimitTokens = 'Between 4,000 and 1,000,000 tokens.';
  else builder.contextLimitTokens = limit;

  const pct = Number(d.compactAtPercent.trim().replace(/%$/, ''));
  if (!d.compactAtPercent.trim() || !Number.isFinite(pct)) errors.compactAtPercent = 'A percentage, e.g. 70.';
  else if (pct < 20 || pct > 95) errors.compactAtPercent = 'Between 20% and 95% of the limit.';
  else builder.compactAtShare = Math.round(pct) / 100;

  return Object.keys(errors).length ? { errors } : { builder };
}
