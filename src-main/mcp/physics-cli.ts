import type { z } from 'zod';
import { stringify } from 'yaml';
import { mcpProcedures } from '../api/mcp';
import { procedures } from '../api/procedures';
import { shapeOf } from './physics';

/**
 * `npx tsx src-main/mcp/physics-cli.ts <area/verb>...` prints the physics.yaml entry of each
 * procedure (with no names: every procedure), ready to paste under `paths:` and give a summary.
 */
const all = { ...procedures, ...mcpProcedures } as unknown as Record<string, { input: z.ZodType; output: z.ZodType }>;
const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(all);
const paths: Record<string, unknown> = {};
for (const name of names) {
  const p = all[name];
  if (!p) {
    console.error(`No procedure named "${name}".`);
    process.exitCode = 1;
    continue;
  }
  paths[`/api/${name}`] = { method: 'POST', procedure: name, summary: 'WRITE ME', input: shapeOf(p.input, 'input'), output: shapeOf(p.output, 'output') };
}
process.stdout.write(stringify({ paths }, { lineWidth: 140 }));
