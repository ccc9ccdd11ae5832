import { InvalidInputError } from '../../common/errors';
import type { PostgresConnection } from '../../store/postgres/connection';

/** The one channel every server of a desk LISTENs on. */
export const DESK_CHANNEL = 'forge_desk';

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (the default build's limit), and it
 * would refuse it only at the statement, after the caller's other writes: we refuse it first, with
 * a message that says what to do.
 */
export const MAX_PAYLOAD_BYTES = 7999;

/** Event kinds are short dotted names (`expression.approved`, `desk.limit_changed`): what subscribers switch on. */
export const EVENT_KIND_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** A desk event as it travels: a JSON object with its kind; the rest is the kind's own fields. */
export interface PublishedDeskEvent {
  kind: string;
  [field: string]: unknown;
}

/** An event whose payload PostgreSQL would refuse: too large, or not a well-formed desk event. */
export class DeskEventRefusedError extends InvalidInputError {
  constructor(message: string) {
    super(message);
    this.name = 'DeskEventRefusedError';
  }
}

/**
 * Announces `event` to every server of the desk (`SELECT pg_notify`). Called inside the caller's
 * transaction, the event is delivered when that transaction commits and never if it rolls back —
 * so a listener never hears of an approval that did not happen. Outside a transaction it is
 * delivered at once.
 */
export function publish(connection: PostgresConnection, event: PublishedDeskEvent): void {
  connection.query('SELECT pg_notify($1, $2)', [DESK_CHANNEL, encodeDeskEvent(event)]);
}

/** The payload `publish` sends; refuses (DeskEventRefusedError) what a listener could not read back. */
export function encodeDeskEvent(event: PublishedDeskEvent): string {
  if (typeof event?.kind !== 'string' || !EVENT_KIND_PATTERN.test(event.kind)) {
    throw new DeskEventRefusedError(`A desk event needs a dotted kind such as "expression.approved"; got ${JSON.stringify(event?.kind)}.`);
  }
  if (event.kind === 'desk.connected' || event.kind === 'desk.reconnecting') {
    throw new DeskEventRefusedError(`"${event.kind}" is said by each server's own listener about its connection; it is not published.`);
  }
  let payload: string;
  try {
    payload = JSON.stringify(event);
  } catch (e) {
    throw new DeskEventRefusedError(`The "${event.kind}" event cannot be written as JSON: ${(e as Error).message}`);
  }
  const bytes = Buffer.byteLength(payload, 'utf8');
  if (bytes > MAX_PAYLOAD_BYTES) {
    throw new DeskEventRefusedError(
      `The "${event.kind}" event is ${bytes} bytes; PostgreSQL carries at most ${MAX_PAYLOAD_BYTES}. Send the record's id and let each server read the record.`,
    );
  }
  return payload;
}
