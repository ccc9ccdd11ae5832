/**
 * One "server's tracker" of the close race (close-once.test.ts): its own process and connection.
 * Says READY, waits for a line on stdin, then for each Expression id tries to close it and, when it
 * won, records the Outcome in the same transaction (as the tracker does). Prints the ids it closed.
 * Usage: node --import tsx close.child.ts <database url> '<["E-1",…]>'
 */
import { PostgresConnection } from '../../../store/postgres/connection';
import { closeOnce } from '../close-once';

const [url, list] = process.argv.slice(2);
const ids = JSON.parse(list!) as string[];
const connection = PostgresConnection.open(url!, { applicationName: `forge close race ${process.pid}` });
process.stdout.write('READY\n');
process.stdin.once('data', () => {
  const closed: string[] = [];
  for (const id of ids) {
    connection.transaction(() => {
      if (!closeOnce(connection, id, ['active'], 'closed')) return;
      // Hold the row a moment, as the tracker's pricing and writing would: the other server waits on it.
      connection.query('SELECT pg_sleep(0.002)');
      connection.run('INSERT INTO close_test_outcomes (id, closed_by) VALUES ($1, $2)', [id, String(process.pid)]);
      closed.push(id);
    });
  }
  process.stdout.write(`${JSON.stringify(closed)}\n`);
  connection.close();
  process.exit(0);
});
