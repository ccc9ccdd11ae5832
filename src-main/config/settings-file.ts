import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { settings as settingsSchema, type Settings } from '../api/procedures';
import { writeFileAtomic } from '../common/atomic-file';
import { makePrivate } from '../common/private-files';
import { defaultSettings } from './defaults';

export const SETTINGS_FILE = 'settings.json';

/**
 * Settings persisted as JSON in the data folder. A damaged file is never silently overwritten:
 * it is moved aside (settings.json.corrupt-<time>) and the defaults are used, with a notice.
 */
export class SettingsFile {
  private current: Settings;
  readonly notices: string[] = [];
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, SETTINGS_FILE);
    this.current = this.load();
  }

  get(): Settings {
    return structuredClone(this.current);
  }

  update(patch: Partial<Settings>): Settings {
    const next = settingsSchema.parse({ ...this.current, ...patch });
    writeFileAtomic(this.path, JSON.stringify(next, null, 2) + '\n', 0o600);
    this.current = next;
    return this.get();
  }

  private load(): Settings {
    if (!existsSync(this.path)) return structuredClone(defaultSettings);
    makePrivate(this.path); // an older version wrote it 0644
    try {
      const raw = JSON.parse(readFileSync(this.path, 'utf8'));
      // Merge over defaults so a file written by an older version gains new settings.
      const parsed = settingsSchema.safeParse({ ...defaultSettings, ...raw });
      if (parsed.success) return parsed.data;
      throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    } catch (e) {
      const aside = `${this.path}.corrupt-${Date.now()}`;
      renameSync(this.path, aside);
      this.notices.push(`Your settings file could not be read (${(e as Error).message}); it was kept as ${aside} and defaults are in use.`);
      return structuredClone(defaultSettings);
    }
  }
}
