// One Forge server's store on a desk database, doing read-modify-writes as the store does (read a
// value, then write the value plus one, inside writeTransaction). Prints READY, waits for "go" on
// stdin (so both servers start together), then prints "done" as its JSON result.
import { openDeskStore } from '../desk-store';

const [url, times] = process.argv.slice(2);
const store = openDeskStore(url);
process.stdout.write('READY\n');
process.stdin.once('data', () => {
  for (let i = 0; i < Number(times); i++) {
    store.writeTransaction(() => {
      const n = Number(store.getMeta('race_counter') ?? '0');
      // A pause between the read and the write, as a real edit has (parsing, validating, rendering).
      const until = Date.now() + 2;
      while (Date.now() < until) {
        /* busy: the transaction holds what it read */
      }
      store.setMeta('race_counter', String(n + 1));
    });
  }
  store.close();
  process.stdout.write('"done"\n');
  process.exit(0);
});
