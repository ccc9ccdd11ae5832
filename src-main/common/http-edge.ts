import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The edge of Forge's two loopback listeners (the app's API and the MCP server), where bytes are not yet a request we understand. Anything that arrives
 * here — an unparsable request line, a reset mid-handshake, a header block Node refuses — is
 * answered with a 4xx and a closed socket; none of it may throw out of an event listener, where it
 * would end the whole process.
 */

/**
 * The request's URL against our own origin, or undefined when it cannot be parsed: Node accepts
 * request targets such as `http://[` that WHATWG URL rejects, and `new URL` would throw.
 */
export function parseRequestUrl(req: IncomingMessage, port: number): URL | undefined {
  try {
    return new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  } catch {
    return undefined;
  }
}

/** Answer a raw socket (an upgrade we refuse, a request Node could not parse) and close it once the answer is out. */
export function refuseSocket(socket: Duplex, status: number, text: string): void {
  if (!socket.writable || socket.destroyed) {
    socket.destroy();
    return;
  }
  socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}

/**
 * The server's `clientError`: Node could not parse what arrived (bad request line, bad header,
 * a header block over the limit, a timeout). The answer names the reason when the socket can
 * still carry one and no response is already half-written on it, as Node's own default does.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Errors after this one (the peer resetting while we answer) are expected and harmless.
  socket.on('error', () => undefined);
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') refuseSocket(socket, 431, 'Request Header Fields Too Large');
  else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') refuseSocket(socket, 408, 'Request Timeout');
  else refuseSocket(socket, 400, 'Bad Request');
}
