import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HearthError } from '../errors';
import { RateLimited } from './limits/headers';
import { validationError } from './validation';

const partOf = (context: string | undefined): string =>
  context === 'querystring' ? 'query' : context === 'params' ? 'path' : (context ?? 'body');

/** Maps anything a handler or Fastify throws to the uniform error body. Internals of 5xx errors never leave. */
export function toHearthError(error: unknown, request?: FastifyRequest): HearthError {
  if (error instanceof HearthError) return error;
  const fastifyError = error as FastifyError & { validationContext?: string };
  if (fastifyError?.validation) {
    const part = partOf(fastifyError.validationContext);
    const data =
      part === 'query'
        ? request?.query
        : part === 'path'
          ? request?.params
          : part === 'headers'
            ? request?.headers
            : request?.body;
    return validationError(fastifyError.validation as never, part, data);
  }
  switch (fastifyError?.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HearthError('unsupported_media_type', fastifyError.message);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HearthError('payload_too_large', 'Request body is too large');
    case 'FST_ERR_BAD_URL':
      return new HearthError('invalid_parameter', 'Invalid Parameter: path. It is not a valid URL component');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new HearthError('uri_too_long', 'A path parameter is too long');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HearthError('invalid_body', 'Request body is not valid JSON');
  }
  if (fastifyError instanceof SyntaxError || fastifyError?.statusCode === 400) {
    return new HearthError('invalid_body', 'Request body is not valid JSON');
  }
  const status = fastifyError?.statusCode;
  if (status === 429) return new HearthError('rate_limited', 'Too many requests, try again later');
  if (status === 413) return new HearthError('payload_too_large', 'Request body is too large');
  if (status === 415) return new HearthError('unsupported_media_type', 'Unsupported Media Type');
  return new HearthError('internal_error');
}

/** Answers `error` with the uniform body; internals of 5xx errors are logged, never sent. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const hearthError = toHearthError(error, request);
  if (hearthError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
  if (hearthError instanceof RateLimited) hearthError.writeHeaders(reply);
  reply.status(hearthError.statusCode).type('application/json; charset=utf-8').send(hearthError.toBody());
}

/**
 * Answers what Node's HTTP parser refuses before any route sees it (a URL and headers over its size limit, a
 * request that timed out, bytes that are not HTTP) with the uniform body, straight on the socket.
 */
export function sendClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const hearthError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new HearthError('headers_too_large', 'The URL and headers of the request are too large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new HearthError('request_timeout', 'The request did not arrive in time')
        : new HearthError('invalid_request', 'The request is not valid HTTP');
  const body = JSON.stringify(hearthError.toBody());
  const status = hearthError.statusCode;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * How much of a refused request's body is still read, and dropped, before the answer goes out. A client keeps
 * writing until it has sent its body: closing the connection under it (as Fastify does after a body over the
 * limit) ends in EPIPE or a reset instead of the 413 it should read. Bodies beyond this bound are not worth
 * reading: they get the answer at once and the connection closes.
 */
const DISCARD_BYTES = 16 * 1024 * 1024;
const DISCARD_MS = 10_000;

/** Reads and drops the rest of a request's body, up to `limit` bytes or `ms` milliseconds. */
function discardBody(raw: IncomingMessage, limit: number, ms: number): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  if (Number(raw.headers['content-length']) > limit) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', finish).off('close', finish).off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) finish();
    };
    const timer = setTimeout(finish, ms);
    raw.on('data', onData).once('end', finish).once('close', finish).once('error', finish);
    raw.resume();
  });
}

/** Answers an error once the request's body has arrived (within the bound above), so the client reads it. */
async function answerError(error: unknown, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  await discardBody(request.raw, Math.max(DISCARD_BYTES, request.routeOptions.bodyLimit ?? 0), DISCARD_MS);
  sendError(error, request, reply);
  return reply;
}

/** Installs the uniform error body and the 404 handler on a Fastify instance. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(answerError);
  app.setNotFoundHandler((request, reply) => {
    const error = new HearthError('route_not_found', `Not Found: ${request.method} ${request.url.split('?')[0]}`);
    reply.status(404).type('application/json; charset=utf-8').send(error.toBody());
  });
}
