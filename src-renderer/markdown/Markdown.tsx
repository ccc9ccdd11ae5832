import { memo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { rehypeRawAsText, remarkLineBreaks } from './plugins';
import { safeHref, safeImageSrc } from './urls';

/**
 * Renders markdown from memory records and analyst output (written by an LLM, or by anyone who can
 * write a file) as React elements. Raw HTML in the source is shown as text (never parsed: no
 * rehype-raw), rehype-sanitize strips what the GitHub schema does not allow, and links
 * and images go through `urls.ts`, so nothing in a record can run script or reach out on its own.
 */
export const Markdown = memo(function Markdown(props: { source: string; className?: string }) {
  return (
    <div className={props.className ?? 'markdown'}>
      <ReactMarkdown
        remarkPlugins={REMARK}
        rehypePlugins={REHYPE}
        urlTransform={(url, key) => (key === 'src' ? safeImageSrc(url) : safeHref(url))}
        components={COMPONENTS}
      >
        {props.source}
      </ReactMarkdown>
    </div>
  );
});

const REMARK = [remarkGfm, remarkLineBreaks];
const REHYPE = [rehypeRawAsText, rehypeSanitize];

const COMPONENTS: Components = {
  a({ node: _node, href, children, title }) {
    // A link whose address was refused (javascript:, data:, a bare fragment) reads as its text.
    if (!href) return <span>{children}</span>;
    // `#/…` is a screen of this app: follow it in the window.
    if (href.startsWith('#/')) return <a href={href}>{children}</a>;
    // The shell opens external links in the system browser; the window itself never navigates.
    return (
      <a href={href} title={title} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  },
  img({ src, alt }) {
    // Untrusted content must not make the app fetch from a remote host (a tracking pixel would tell
    // its author who read the record, and when): show what the image is and where, never load it.
    const label = `Image: ${alt || 'no description'}`;
    if (typeof src !== 'string' || !src) return <span className="md-image">{label}</span>;
    return (
      <a className="md-image" href={src} target="_blank" rel="noreferrer noopener">
        {label}
      </a>
    );
  },
  pre({ node, children }) {
    const code = node?.children[0];
    const classes = code && code.type === 'element' ? code.properties.className : undefined;
    const lang = Array.isArray(classes) ? classes.map(String).find((c) => c.startsWith('language-')) : undefined;
    return (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a long code line scrolls sideways; a keyboard user has to be able to focus the block to scroll it.
      <pre className="md-code" data-lang={lang?.slice('language-'.length)} tabIndex={0}>
        {children}
      </pre>
    );
  },
  table({ children }) {
    return (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls sideways inside its wrapper; focus lets the keyboard scroll it.
      <div className="md-table-wrap" tabIndex={0}>
        <table>{children}</table>
      </div>
    );
  },
};
