/**
 * One "server" of the lease race (leases.test.ts): its own process and connection. It says READY
 * once connected, waits for a line on stdin (so both children start at once), then walks the
 * slots claiming each; for every slot it wins it "runs the job" (a row in lease_test_runs) and
 * finishes the slot. Prints one JSON line: the slots it ran.
 * Usage: node --import tsx claim.child.ts <database url> <job> <slot count>
 */
import { PostgresConnection } from '../../../store/postgres/connection';
import { DeskLeases } from '../leases';

const [url, job, count] = process.argv.slice(2);
const connection = PostgresConnection.open(url!, { applicationName: `forge lease race ${process.pid}` });
const leases = new DeskLeases(connection, `child-${process.pid}`);
process.stdout.write('READY\n');
process.stdin.once('data', () => {
  const ran: string[] = [];
  for (let i = 0; i < Number(count); i++) {
    const slot = `2026-11-28T${String(i).padStart(2, '0')}:00:00.000Z`;
    if (!leases.claim(job!, slot).claimed) continue;
    connection.run('INSERT INTO lease_test_runs (job, slot, holder) VALUES ($1, $2, $3)', [job, slot, leases.holder]);
    leases.finish(job!, slot, 'ok');
    ran.push(slot);
  }
  process.stdout.write(`${JSON.stringify(ran)}\n`);
  connection.close();
  process.exit(0);
});
