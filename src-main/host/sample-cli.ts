import { parseArgs } from 'node:util';
import { resolveDataDir } from '../config/paths';

/**
 * `forge sample`: what Home's "This is a sample workspace — Keep it / Start empty" card does, for a
 * PM (or a script) at a terminal. Without options it says whether the workspace is still the
 * untouched sample; `--clear --yes` empties it exactly as Start empty does (the same procedure:
 * one transaction, archived and audited, refused once anything was changed). `--clear` without
 * `--yes` removes nothing and says what it would remove, because clearing cannot be undone here.
 */
export const SAMPLE_USAGE = `Usage: forge sample [--clear --yes] [--data DIR]

Without options: says whether the workspace is still the untouched sample it started with.
  --clear     remove the sample records (Views, theses, notes…), as Home's "Start empty" does;
              refused once you changed, removed or added a record. Positions and limits stay.
  --yes       confirm --clear (without it nothing is removed)
  --data DIR  workspace folder (default: $FORGE_HOME or ~/.forge)
`;

export async function forgeSampleCli(args: string[]): Promise<number> {
  let values: { clear?: boolean; yes?: boolean; data?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { clear: { type: 'boolean' }, yes: { type: 'boolean' }, data: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (e) {
    console.error(`forge sample: ${(e as Error).message}\n\n${SAMPLE_USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(SAMPLE_USAGE);
    return 0;
  }
  if (values.yes && !values.clear) {
    console.error('forge sample: --yes confirms --clear; give both to remove the sample.');
    return 2;
  }
  const dataDir = resolveDataDir(values.data);
  // Loaded here: the core (SQLite, search) is only needed once the command is known to be valid.
  const { createCore } = await import('./core');
  const core = createCore({ dataDir, mode: 'headless', scheduler: false });
  try {
    await core.context.memory.ready;
    const status = await core.invoke('workspace/sample', {});
    if (!status.ok) {
      console.error(`forge sample: ${status.error.message}`);
      return 1;
    }
    const { state, sampleRecords, reason } = status.value;
    if (!values.clear) {
      console.log(describeState(state, sampleRecords, reason, dataDir));
      return 0;
    }
    if (!values.yes) {
      // Say what would go (or why nothing can) and remove nothing.
      if (state !== 'untouched') console.error(`forge sample: ${describeState(state, sampleRecords, reason, dataDir)}`);
      else
        console.error(
          `forge sample: this would remove the ${sampleRecords} sample records from ${dataDir} (positions and limits stay). Nothing was removed; run again with --yes to clear it.`,
        );
      return 2;
    }
    const cleared = await core.invoke('workspace/clear-sample', {});
    if (!cleared.ok) {
      console.error(`forge sample: ${cleared.error.message}`);
      return 1;
    }
    const { removed, recalibrated, kept, message } = cleared.value;
    console.log(`forge sample: ${message}`);
    for (const path of removed) console.log(`  removed  ${path}`);
    for (const path of recalibrated) console.log(`  recomputed from your (now empty) data  ${path}`);
    for (const path of kept) console.log(`  kept     ${path}`);
    console.log('Removed records are archived, as every delete is; the audit trail lists them.');
    return 0;
  } finally {
    await core.close();
  }
}

function describeState(state: string, records: number, reason: string | undefined, dataDir: string): string {
  switch (state) {
    case 'untouched':
      return `${dataDir} holds the untouched sample workspace (${records} sample records). Keep it to explore, or clear it: forge sample --clear --yes`;
    case 'in-use':
      return `${dataDir} started from the sample and is now in use (${reason ?? 'it was changed'}), so the sample stays: Forge removes nothing you may have relied on.`;
    case 'cleared':
      return `The sample workspace in ${dataDir} was already cleared.`;
    default:
      return `${dataDir} was not started from the sample, so there is nothing to clear.`;
  }
}
