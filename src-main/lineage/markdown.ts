import type { LineageView } from '../api/lineage';

/** One line of table-free Markdown: no stray newlines or pipes breaking the list it sits in. */
const inline = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

/**
 * The lineage as one Markdown document a PM can file in a decision journal: a title, then each
 * step with its time, kind, summary, figures and the record paths it rests on.
 */
export function lineageMarkdown(view: LineageView, exportedAt: string): string {
  const lines = [
    `# Decision lineage — ${view.id}: ${inline(view.title)}`,
    '',
    `- Expression: \`${view.path}\` (status ${view.status || 'not recorded'})`,
    `- Proposing session: ${view.sessionId ? `\`/session/${view.sessionId}/\`` : 'none recorded'}`,
    `- Exported: ${exportedAt}`,
    `- Steps: ${view.steps.length} (${view.steps.filter((s) => !s.recorded).length} not recorded)`,
    '',
  ];
  view.steps.forEach((s, n) => {
    lines.push(`## ${n + 1}. ${s.at ?? 'time not recorded'} · ${s.kind} — ${inline(s.title)}`, '');
    if (!s.recorded) lines.push('_Not recorded._', '');
    for (const para of s.summary.split('\n').filter((p) => p.trim())) lines.push(inline(para), '');
    if (s.figures.length) {
      lines.push('Figures:', '');
      for (const f of s.figures) lines.push(`- ${inline(f.label)}: ${inline(f.value)}`);
      lines.push('');
    }
    if (s.links.length) {
      lines.push('Records:', '');
      for (const l of s.links) lines.push(`- \`${l}\``);
      lines.push('');
    }
  });
  return `${lines.join('\n').trimEnd()}\n`;
}
