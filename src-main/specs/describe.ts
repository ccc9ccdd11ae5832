import type { SpecPackage, SpecTask } from './types';

function countTasks(tasks: SpecTask[]): number {
  return tasks.reduce((n, t) => n + 1 + countTasks(t.subtasks ?? []), 0);
}

/**
 * What `forge build --dry-run` prints: the format found and why, the documents with their sizes,
 * the phases by the plan's own numbering with their task counts, and what was not understood —
 * enough for the PM to see whether Forge read their specs as they meant them, before any model runs.
 */
export function describeSpecPackage(pkg: SpecPackage): string {
  const out: string[] = [];
  out.push(`Format: ${pkg.format}${pkg.feature ? ` — ${pkg.format === 'openspec' ? 'change' : 'feature'} ${pkg.feature}` : ''}`);
  if (pkg.detected) out.push(pkg.detected);
  const others = (pkg.features ?? []).filter((f) => f !== pkg.feature);
  if (others.length) out.push(`Also in the package (pick one with --feature): ${others.join(', ')}`);
  const total = pkg.documents.reduce((n, d) => n + d.tokens, 0);
  out.push('', `Documents (${pkg.documents.length}, ${total.toLocaleString('en-US')} tokens):`);
  const idWidth = Math.min(60, Math.max(0, ...pkg.documents.map((d) => d.id.length)));
  for (const d of pkg.documents) {
    out.push(`  ${d.id.padEnd(idWidth)}  ${String(d.tokens).padStart(6)} tokens  [${d.kind}] ${d.title}`);
  }
  out.push('', `Phases (${pkg.phases.length}):`);
  if (!pkg.phases.length) out.push('  none');
  for (const p of pkg.phases) {
    const n = countTasks(p.tasks);
    out.push(`  Phase ${p.id}${p.name ? ` — ${p.name}` : ''}: ${n} task${n === 1 ? '' : 's'} (${p.source})`);
  }
  const pre = pkg.preamble ? pkg.preamble.split('\n').length : 0;
  if (pre) out.push('', `Preamble: ${pre} line${pre === 1 ? '' : 's'} before the first phase, carried with every phase.`);
  out.push('', pkg.notUnderstood.length ? 'Not understood:' : 'Not understood: nothing.');
  for (const s of pkg.notUnderstood) out.push(`  - ${s}`);
  return out.join('\n');
}
