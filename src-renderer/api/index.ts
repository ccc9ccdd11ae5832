export { createClient, windowClient, chooseTransport, takeToken, unwrap, bridgeOf, TOKEN_KEY } from './client';
export type { ForgeBridge, ForgeClient, TransportKind, ClientOptions } from './client';
export { ApiError, isApiError, readableMessage, errorHeadline, fieldErrors } from './errors';
export { connectBridgeEvents, connectSocketEvents, eventsUrl, backoffMs, parseEventFrame, useConnection, knownEvents } from './events';
export type { ConnectionState } from './events';
export { ForgeProvider, makeQueryClient, procedureKey, useClient, useProcedure, useProcedureMutation } from './hooks';
