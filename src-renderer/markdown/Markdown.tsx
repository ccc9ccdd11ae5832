// biome-ignore-all lint/suspicious/noArrayIndexKey: blocks, items and cells come wholly from the source text and hold no state; their position is their identity.
import { useMemo, type ReactNode } from 'react';
import { parseMarkdown, type Block, type Inline } from './parse';

/** Renders markdown as React elements only; text is always text, never markup. */
export function Markdown(props: { source: string; className?: string }) {
  const blocks = useMemo(() => parseMarkdown(props.source), [props.source]);
  return <div className={props.className ?? 'markdown'}>{blocks.map(renderBlock)}</div>;
}

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case 'heading': {
      const H = `h${block.level}` as 'h1';
      return <H key={key}>{block.children.map(renderInline)}</H>;
    }
    case 'paragraph':
      return <p key={key}>{block.children.map(renderInline)}</p>;
    case 'list': {
      const items = block.items.map((item, n) => <li key={n}>{item.map(renderBlock)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'code':
      return (
        <pre key={key} className="md-code" data-lang={block.lang || undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case 'quote':
      return <blockquote key={key}>{block.children.map(renderBlock)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'table':
      return (
        <div key={key} className="md-table-wrap">
          <table>
            <thead>
              <tr>
                {block.head.map((cell, c) => (
                  <th key={c} style={block.align[c] ? { textAlign: block.align[c]! } : undefined}>
                    {cell.map(renderInline)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} style={block.align[c] ? { textAlign: block.align[c]! } : undefined}>
                      {cell.map(renderInline)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

function renderInline(node: Inline, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return node.text;
    case 'br':
      return <br key={key} />;
    case 'code':
      return <code key={key}>{node.text}</code>;
    case 'strong':
      return <strong key={key}>{node.children.map(renderInline)}</strong>;
    case 'em':
      return <em key={key}>{node.children.map(renderInline)}</em>;
    case 'del':
      return <del key={key}>{node.children.map(renderInline)}</del>;
    case 'link':
      // The shell opens external links in the system browser; the window itself never navigates.
      return (
        <a key={key} href={node.href} target="_blank" rel="noreferrer noopener">
          {node.children.map(renderInline)}
        </a>
      );
  }
}
