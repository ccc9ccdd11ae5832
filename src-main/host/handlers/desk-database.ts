import type { z } from 'zod';
import type { deskDatabaseView } from '../../api/desk-database';
import { InvalidInputError } from '../../common/errors';
import { parseTarget } from '../../store/postgres/target';
import type { CoreContext } from '../context';
import { probeDeskDatabase } from '../desk-database-probe';
import {
  DESK_PASSWORD_SECRET,
  type DeskDatabaseSource,
  readDeskDatabaseSetting,
  saveDeskDatabaseSetting,
  withoutPassword,
  withPassword,
} from '../desk-database-setting';
import { settingsViewOf } from './settings';
import type { PartialHandlerMap } from './types';

/** What this core was started on: CoreConfig.database and where it came from (host/desk-database-setting.ts). */
export interface RunningDatabase {
  database: string | undefined;
  from: DeskDatabaseSource;
  /** Why the saved desk database was not opened at start (the shell fell back to the PM's own workspace). */
  problem?: string;
}

/** A URL as the renderer may see it: host, user and database, the password as "***". */
const masked = (url: string) => parseTarget(url).masked;
/** Two URLs name the same database whatever their passwords. */
const samePlace = (a: string | undefined, b: string | undefined) => (a ? withoutPassword(a) : '') === (b ? withoutPassword(b) : '');

function viewOf(ctx: CoreContext, running: RunningDatabase): z.infer<typeof deskDatabaseView> {
  const saved = readDeskDatabaseSetting(ctx.dataDir);
  const passwordSaved = Boolean(ctx.secrets.get(DESK_PASSWORD_SECRET));
  // --db and FORGE_DB override the setting, so saving one changes nothing until they are gone.
  const overridden = running.from === 'flag' || running.from === 'environment';
  return {
    saved: saved ? masked(withPassword(saved, passwordSaved ? 'x' : undefined)) : null,
    passwordSaved,
    running: running.database ? masked(running.database) : null,
    runningFrom: running.database ? running.from : 'none',
    restartNeeded: !overridden && !samePlace(saved, running.database),
    passwordStorage: ctx.secrets.description,
    startProblem: running.problem ?? null,
  };
}

/** Settings → Desk database: save, clear and test the desk database the app opens at its next start. */
export function deskDatabaseHandlers(running: RunningDatabase): PartialHandlerMap {
  return {
    'settings/desk-database': (_input, ctx) => viewOf(ctx, running),
    'settings/set-desk-database': (input, ctx) => {
      saveDeskDatabaseSetting(ctx.dataDir, ctx.secrets, input.url);
      // The secrets' "is set" flags changed with it: open Settings screens refresh.
      ctx.events.emit('settings/changed', settingsViewOf(ctx));
      return viewOf(ctx, running);
    },
    'settings/test-desk-database': async (input, ctx) => {
      const saved = readDeskDatabaseSetting(ctx.dataDir);
      const url = input.url ?? saved;
      if (!url) throw new InvalidInputError('No desk database is saved; type its postgres:// URL to test it.');
      const password = ctx.secrets.get(DESK_PASSWORD_SECRET);
      // The saved URL holds no password: the secret store's goes in, as it will at the next start.
      return probeDeskDatabase(input.url === undefined ? withPassword(url, password) : url, password);
    },
  };
}
