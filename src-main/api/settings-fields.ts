import { z } from 'zod';

/**
 * The checks Settings applies to what the PM types, beyond the stored shape. They sit on the
 * patch, not on the stored settings, so a file saved by an older version (with a zone this
 * engine does not know) still loads instead of being moved aside with every other setting.
 */

/** True when this engine can run a schedule in the zone: the same check the scheduler's clock makes. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneInput = z
  .string()
  .min(1)
  .max(64)
  // IANA names: Area/Location (Europe/London, America/Argentina/Buenos_Aires, Etc/GMT+5) or UTC.
  .regex(/^[A-Z][A-Za-z_+-]*(?:\/[A-Za-z0-9_+-]+)*$/, 'not a time zone name; use an IANA name such as Europe/London or America/New_York')
  .refine(isKnownTimeZone, 'not a time zone Forge knows; use an IANA name such as Europe/London or America/New_York');

/** A model gateway or data vendor is reached over HTTP(S); ftp:// or file:// would only fail later, at the first call. */
export const httpBaseUrlInput = z
  .url({ protocol: /^https?$/, error: 'must be a web address starting with http:// or https://' })
  .max(500)
  .or(z.literal(''));
