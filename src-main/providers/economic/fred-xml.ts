import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ProviderError } from '../provider';
import { type FredObservations, observationsResponse } from './fred';

/**
 * FRED's XML answers (`file_type=xml`, FRED's default, and what a PM gets saving the API's answer
 * from a browser): `<observations count=".."><observation realtime_start date value/></observations>`
 * read into the same shape as the JSON answer, so both are treated alike downstream ("." stays
 * missing, count says whether this is a page). FRED's XML error body (`<error code message/>`) is
 * read too, so its message reaches the PM instead of "unexpected shape".
 */

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Attributes only: values stay strings ("." and "2002.28" alike), exactly as the JSON API has them.
  parseAttributeValue: false,
  isArray: (name) => name === 'observation',
  processEntities: true,
});

function parse(text: string, what: string): Record<string, unknown> {
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new ProviderError(`FRED's XML for ${what} is not well formed (line ${valid.err.line}: ${valid.err.msg}); the answer may be cut off.`, 'bad_response');
  }
  return parser.parse(text) as Record<string, unknown>;
}

/** FRED's `<error code="400" message="Bad Request. The series does not exist."/>`, or null when the text is not one. */
export function fredXmlError(text: string): { code: number; message: string } | null {
  if (!/^\s*(<\?xml[^>]*\?>\s*)?<error\b/.test(text)) return null;
  try {
    const err = parse(text, 'an error').error as { code?: string; message?: string } | undefined;
    if (!err?.message) return null;
    return { code: Number(err.code ?? 0), message: err.message.replace(/\s+/g, ' ').trim() };
  } catch {
    return null;
  }
}

/** `fred/series/observations` as XML → the JSON answer's shape (validated by the same schema). */
export function parseFredObservationsXml(text: string, what = 'observations'): FredObservations {
  const err = fredXmlError(text);
  if (err) throw new ProviderError(`FRED refused ${what}: ${err.message}`, /does not exist/i.test(err.message) ? 'not_found' : 'bad_params');
  const root = parse(text, what).observations as Record<string, unknown> | undefined;
  if (!root || typeof root !== 'object') throw new ProviderError(`FRED's XML for ${what} has no <observations> element.`, 'bad_response');
  const rows = (root.observation as Record<string, unknown>[] | undefined) ?? [];
  const shaped = observationsResponse.safeParse({
    realtime_start: root.realtime_start,
    realtime_end: root.realtime_end,
    count: root.count === undefined ? undefined : Number(root.count),
    observations: rows.map((o) => ({ date: o.date, value: o.value, realtime_start: o.realtime_start, realtime_end: o.realtime_end })),
  });
  if (!shaped.success) {
    const issue = shaped.error.issues[0];
    throw new ProviderError(`FRED's XML for ${what} is not in FRED's shape (${issue?.path.join('.') || 'body'}: ${issue?.message}).`, 'bad_response');
  }
  return shaped.data;
}
