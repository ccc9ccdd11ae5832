/**
 * The project's name and one-line description for the build's first message, read from the
 * blueprint (no model call).
 */

const MAX_DESCRIPTION = 300;

const plain = (s: string) =>
  s
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__|`/g, '')
    .replace(/(^|\s)[*_](\S[^*_]*?)[*_](?=\s|[.,;:!?]|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The project's name and one-line description, from the blueprint: its first heading (without a
 * "Blueprint —" label) and the first sentence of its first paragraph. A missing or empty blueprint
 * gives the fallback name and an empty description rather than an error: the builder can still
 * read the blueprint itself.
 */
export function projectBrief(blueprintMarkdown: string | null | undefined, fallbackName = 'Untitled project'): { name: string; description: string } {
  const lines = (blueprintMarkdown ?? '').replace(/\r\n?/g, '\n').split('\n');
  let name = '';
  const paragraph: string[] = [];
  let inFence = false;
  for (const line of lines) {
    const t = line.trim();
    if (/^(```|~~~)/.test(t)) {
      inFence = !inFence;
      if (paragraph.length) break;
      continue;
    }
    if (inFence || t.startsWith('<!--')) continue;
    const heading = /^#{1,6}\s+(.+?)\s*#*$/.exec(t);
    if (heading) {
      if (paragraph.length) break;
      if (!name) name = headingName(heading[1]!);
      continue;
    }
    if (!t) {
      if (paragraph.length) break;
      continue;
    }
    if (/^(\||-{3,}|={3,})/.test(t)) continue; // tables and rules are not a description
    paragraph.push(t.replace(/^([-*+]|\d+[.)])\s+/, ''));
  }
  return { name: name || fallbackName, description: firstSentence(plain(paragraph.join(' '))) };
}

function headingName(heading: string): string {
  const h = plain(heading);
  const labelled = /^(?:project\s+)?blueprint\s*[:—–-]\s*(.+)$/i.exec(h) ?? /^(.+?)\s*[:—–-]\s*(?:project\s+)?blueprint$/i.exec(h);
  if (labelled) return labelled[1]!.trim();
  return /^(?:project\s+)?blueprint$/i.test(h) ? '' : h;
}

function firstSentence(text: string): string {
  const m = /^.+?[.!?](?=\s+[A-Z("'`]|$)/.exec(text);
  const s = (m ? m[0] : text).trim();
  if (s.length <= MAX_DESCRIPTION) return s;
  const cut = s.slice(0, MAX_DESCRIPTION);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : MAX_DESCRIPTION).trimEnd()}…`;
}
