/**
 * One "server" of the race test (race.test.ts): its own process and connection, approving a list
 * of Expressions one after another as their PMs. It says READY once connected, waits for a line on
 * stdin (so every child starts at once), then prints one JSON line with each attempt's result.
 * Usage: node --import tsx approve.child.ts <database url> '<[{"actor":"alice","id":"E-101"},…]>'
 */
import { PostgresConnection } from '../../../store/postgres/connection';
import { DeskBooks } from '../books';

const [url, list] = process.argv.slice(2);
const attempts = JSON.parse(list!) as { actor: string; id: string }[];
const connection = PostgresConnection.open(url!, { applicationName: `forge race ${process.pid}` });
const books = new DeskBooks(connection);
process.stdout.write('READY\n');
process.stdin.once('data', () => {
  const results = attempts.map(({ actor, id }) => {
    try {
      const r = books.approve(actor, id);
      return { actor, id, approved: r.approved, changed: r.changed, checked: r.checked };
    } catch (e) {
      return { actor, id, error: `${(e as Error).name}: ${(e as Error).message}` };
    }
  });
  process.stdout.write(`${JSON.stringify(results)}\n`);
  connection.close();
  process.exit(0);
});
