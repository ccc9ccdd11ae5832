// One Forge server on a desk database (a whole core, as `forge serve --db` builds it) running the
// hourly tracker. Prints READY once its workspace is open, waits for "go" on stdin (so two servers
// run their trackers at the same instant), then prints the ids it closed as its JSON result.
import { tempCore } from '../testing';

const [url] = process.argv.slice(2);
const server = tempCore({}, { database: url });
await server.core.context.memory.ready;
process.stdout.write('READY\n');
process.stdin.once('data', async () => {
  const run = await server.core.invoke('tracking/run', {});
  await server.dispose();
  if (!run.ok) {
    process.stderr.write(`${run.error.code}: ${run.error.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify(run.value.closed.map((c) => c.id))}\n`);
  process.exit(0);
});
