import type { Root as HastRoot, Parent as HastParent } from 'hast';
import type { Break, Parent, Root, Text } from 'mdast';

/**
 * A remark plugin: a single newline inside a paragraph is a line break, as the analyst and the PM
 * mean it when they write `Entry: 4.25` and `Stop: 4.50` on two lines (CommonMark would join them).
 */
export function remarkLineBreaks() {
  return (tree: Root) => {
    splitLines(tree);
  };
}

function splitLines(parent: Parent): void {
  const out: Parent['children'] = [];
  for (const child of parent.children) {
    if (child.type === 'text' && child.value.includes('\n')) {
      child.value.split(/[\t ]*\r?\n/).forEach((value, n) => {
        if (n > 0) out.push({ type: 'break' } satisfies Break);
        if (value) out.push({ type: 'text', value } satisfies Text);
      });
      continue;
    }
    // Code keeps its newlines: its `value` is not a text node, and it has no children to visit.
    if ('children' in child) splitLines(child);
    out.push(child);
  }
  parent.children = out as typeof parent.children;
}

/**
 * A rehype plugin, run before sanitising: HTML written into a record is shown as the text it is.
 * Without it the sanitiser would drop it silently, and the PM would not see that a record holds
 * markup (or a `<script>`) at all.
 */
export function rehypeRawAsText() {
  return (tree: HastRoot) => {
    rawToText(tree);
  };
}

function rawToText(parent: HastParent): void {
  parent.children = parent.children.map((child) => {
    if (child.type === 'raw') return { type: 'text', value: child.value };
    if ('children' in child) rawToText(child);
    return child;
  });
}
