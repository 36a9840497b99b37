import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, type ErrorCode } from '@spa/errors';

/** What Node's HTTP parser refuses before Express sees a request, as the public code it answers. */
function refusal(err: NodeJS.ErrnoException): { code: ErrorCode; message: string } | undefined {
  switch (err.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'REQUEST_HEADERS_TOO_LARGE', message: 'The request line and headers are larger than this server accepts (16 KB); shorten the URL or the headers' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' };
    default:
      return { code: 'BAD_REQUEST', message: `The HTTP request is malformed${err.code ? ` (${err.code})` : ''}` };
  }
}

/**
 * Answers the requests Node's HTTP parser refuses on its own (431 for oversized headers or URL, 400 for
 * a malformed request, 408 for a slow one) in the contract's error envelope instead of Node's bare
 * status line, then closes the connection as Node does.
 */
export function answerClientErrorsInEnvelope(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const answer = refusal(err);
    if (!answer || !socket.writable) {
      socket.destroy();
      return;
    }
    const error = new AppError(answer.code, answer.message);
    const body = JSON.stringify(error.toEnvelope());
    const status = error.httpStatus;
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
