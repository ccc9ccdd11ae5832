import type { AppMode } from './config';
import type { SettingsFile } from '../config/settings-file';
import type { SecretStore } from '../config/secrets';
import type { EventBus } from './events';
import type { Workspace } from '../fs';

/** Everything a handler may reach: one object per core, built by the composition root. */
export interface CoreContext {
  readonly mode: AppMode;
  readonly version: string;
  readonly dataDir: string;
  readonly startedAt: Date;
  readonly settings: SettingsFile;
  readonly secrets: SecretStore;
  readonly events: EventBus;
  /** The workspace database and ForgeFS over it (memory, portfolio, sessions, skills). */
  readonly memory: Workspace;
}
