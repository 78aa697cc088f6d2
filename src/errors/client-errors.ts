import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { CommonErrors } from './common-errors';
import { DomainError } from './domain-error';
import { errorBody } from './error-response';

type Log = (fields: object, message: string) => void;

/**
 * Requests Node refuses before any handler sees them (headers over 16 KiB, broken framing, an
 * unknown Expect) still get the contract's error body, with its id in a log line, instead of
 * Node's empty answer.
 */
export function answerClientErrors(server: Server, log: Log): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const domainError =
      error.code === 'HPE_HEADER_OVERFLOW' ? CommonErrors.headersTooLarge() : CommonErrors.malformedRequest();
    const id = randomUUID();
    log({ error_id: id, error_sec: domainError.sec, code: error.code }, 'malformed HTTP request');
    const body = JSON.stringify(errorBody(domainError, id));
    const head = [
      `HTTP/1.1 ${domainError.status} ${STATUS_CODES[domainError.status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    send(response, CommonErrors.expectationFailed(String(request.headers.expect)), log);
  });
}

function send(response: ServerResponse, error: DomainError, log: Log): void {
  const id = randomUUID();
  log({ error_id: id, error_sec: error.sec }, 'refused HTTP request');
  const body = JSON.stringify(errorBody(error, id));
  response.writeHead(error.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
    ...error.headers,
  });
  response.end(body);
}
