/** Progressive disclosure: how much of a document a read returns (seed §3.1). */
export type ReadDepth = 'header' | 'summary' | 'full';

export const HEADER_LINES = 8;

function contentLines(content: string): string[] {
  const lines = content.split('\n');
  // A final newline ends the last line; it does not start another one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function countLines(content: string): number {
  return content === '' ? 0 : contentLines(content).length;
}

/** The first 8 lines, plus a note of how many lines a full read would add. */
export function extractHeader(content: string): string {
  const lines = contentLines(content);
  const head = lines.slice(0, HEADER_LINES).join('\n');
  const remaining = lines.length - HEADER_LINES;
  return remaining > 0 ? `${head}\n[${remaining} more lines — depth='full' to read]` : head;
}

/** The `## NAME` section (heading included) up to the next `## ` heading, or null. */
export function extractSection(content: string, name: string): string | null {
  const lines = contentLines(content);
  const wanted = `## ${name}`.toUpperCase();
  const start = lines.findIndex((l) => l.trim().toUpperCase() === wanted);
  if (start < 0) return null;
  let end = start + 1;
  while (end < lines.length && !lines[end].startsWith('## ')) end++;
  return lines.slice(start, end).join('\n').trimEnd();
}

export function extractSummary(content: string): string {
  const header = extractHeader(content);
  const summary = extractSection(content, 'SUMMARY');
  return summary ? `${header}\n\n${summary}` : header;
}

export function atDepth(content: string, depth: ReadDepth): string {
  if (depth === 'header') return extractHeader(content);
  if (depth === 'summary') return extractSummary(content);
  return content;
}
