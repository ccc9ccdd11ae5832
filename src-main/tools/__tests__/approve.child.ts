/**
 * A second process approving an Expression on the same database, for the race test: it waits
 * for a start file so both approvals really run at once, then prints the result as JSON.
 * Usage: approve.child <db> <skillsDir> <expressionId>
 */
import { existsSync } from 'node:fs';
import { ForgeFS } from '../../fs';
import { defaultGuardrailLimits } from '../../guardrails';
import { Store } from '../../store';
import { approveExpression } from '../approval';

const [dbPath, skillsDir, id] = process.argv.slice(2);
const store = Store.open(dbPath!);
const fs = new ForgeFS({ store, skillsDir: skillsDir! });

async function main(): Promise<void> {
  process.stdout.write('READY\n');
  while (!existsSync(`${dbPath}.go`)) await new Promise((r) => setTimeout(r, 1));
  const r = await approveExpression(fs, id!, defaultGuardrailLimits);
  process.stdout.write(`${JSON.stringify({ id: r.id, approved: r.approved, rules: r.violations.map((v) => v.rule) })}\n`);
  store.close();
}

main().catch((e) => {
  process.stderr.write(String((e as Error)?.stack ?? e) + '\n');
  process.exit(1);
});
