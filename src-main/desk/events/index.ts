export { type DeskConnectionEvent, type DeskEvent, DeskEvents, type DeskEventsOptions, parseDeskEvent } from './desk-events';
export { DESK_CHANNEL, DeskEventRefusedError, encodeDeskEvent, MAX_PAYLOAD_BYTES, type PublishedDeskEvent, publish } from './publish';
