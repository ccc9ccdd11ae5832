import { parseHTML } from 'linkedom';

/**
 * The slice of the DOM this folder uses. The core's tsconfig has no DOM library (it is plain
 * Node), and linkedom's own types assume one, so the parsed document is typed here.
 */
export interface HtmlNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<HtmlNode>;
  remove(): void;
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<HtmlNode>;
  closest(selector: string): HtmlNode | null;
}

export interface HtmlDocument {
  body: HtmlNode | null;
  querySelector(selector: string): HtmlNode | null;
  querySelectorAll(selector: string): Iterable<HtmlNode>;
}

/** A whole HTML document (linkedom builds <body> only for documents, not fragments). */
export function parseDocument(html: string): HtmlDocument {
  return (parseHTML(html) as unknown as { document: HtmlDocument }).document;
}
