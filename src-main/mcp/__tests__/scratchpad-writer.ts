import { Scratchpad } from '../scratchpad';

/**
 * A second (and third) process writing one scratchpad, for scratchpad.test.ts: waits for "go" on
 * stdin so both writers start together, then writes `count` distinct keys one call at a time.
 */
const [workDir, prefix, count] = process.argv.slice(2);
const pad = new Scratchpad(workDir);
process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  for (let i = 0; i < Number(count); i++) await pad.run('write', `${prefix}_${i}`, `note ${i} from ${prefix}`);
  process.stdout.write('done\n');
  process.exit(0);
});
