/**
 * Whether the shell checks for updates, as a pure function (no electron import) so each rule is
 * tested. Updates are never offered to an unsigned build: the updater verifies the download's
 * signature against the running app's, and an unsigned app has nothing to verify against.
 */
export interface UpdateFacts {
  isPackaged: boolean;
  /** Set in package.json by `npm run package` only when signing credentials were present. */
  signed: boolean;
  /** The feed URL baked in at packaging (FORGE_UPDATE_URL); empty when none was given. */
  feedUrl: string;
  /** FORGE_UPDATES from the environment: `off` switches the updater off (offline desks). */
  envSwitch: string | undefined;
}

export type UpdatePolicy = { enabled: true } | { enabled: false; reason: string };

export function updatePolicy(facts: UpdateFacts): UpdatePolicy {
  if (!facts.isPackaged) return { enabled: false, reason: 'Development run: updates come from the source checkout.' };
  if (!facts.signed) return { enabled: false, reason: 'Unsigned build: updates are off because their signature cannot be verified.' };
  if (facts.envSwitch?.toLowerCase() === 'off') return { enabled: false, reason: 'Updates switched off by FORGE_UPDATES=off.' };
  if (!/^https:\/\//.test(facts.feedUrl)) return { enabled: false, reason: 'No HTTPS update feed was configured for this build.' };
  return { enabled: true };
}
