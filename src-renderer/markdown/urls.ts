/**
 * Which addresses a rendered record may carry. Everything else is dropped (the link reads as its
 * text): `javascript:` and `data:` could run script, `file:` reads the disk, and a bare `#anchor`
 * would change the app's route, since screens live in the URL hash.
 */
const WEB_OR_MAIL = /^(https?:\/\/|mailto:)/i;
const WEB = /^https?:\/\//i;
/** An in-app screen such as `#/views/V-001`. */
const IN_APP = /^#\/[^\s]*$/;

/** The href to render, or `undefined` to render the link as plain text. */
export function safeHref(href: string): string | undefined {
  const h = href.trim();
  return WEB_OR_MAIL.test(h) || IN_APP.test(h) ? h : undefined;
}

/** A remote image's address, kept only to be shown as a link; anything else (data:, file:, relative) is dropped. */
export function safeImageSrc(src: string): string | undefined {
  const s = src.trim();
  return WEB.test(s) ? s : undefined;
}
