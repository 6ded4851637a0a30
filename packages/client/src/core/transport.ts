import { APIError, errorFor, messages, TimeoutError } from './errors';
import type { Secrets } from './secrets';

export type Fetch = typeof fetch;

/** A request as the transport sends it. Exactly one of `json` and `form` may be set. */
export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent form-encoded (`%20`, never `+`). */
  form?: Record<string, string | undefined>;
  /** Raw body (multipart uploads). */
  raw?: RequestInit['body'];
  /** Milliseconds; defaults to the transport's timeout. */
  timeout?: number;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  headers: Headers;
  /** Decoded body: JSON when the server says so, else text; `undefined` for 204. */
  body: unknown;
}

export interface TransportOptions {
  fetch: Fetch;
  /** Default per-call timeout in milliseconds (10000). */
  timeout?: number;
  secrets: Secrets;
  /** Receives every debug line, secrets already redacted. */
  debug?: (line: string) => void;
}

export const DEFAULT_TIMEOUT = 10_000;

/** Percent-encodes a form: `%20` for spaces, as OAuth2 servers of the ecosystem expect. */
export function encodeForm(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
}

/** The message of an error answer: the first of these fields that is a non-empty string, else the status text. */
export function errorMessage(body: unknown, statusText: string): string {
  if (typeof body === 'object' && body !== null) {
    for (const key of ['error_description', 'error_message', 'error', 'message', 'result'] as const) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === 'string' && value) return value;
    }
  } else if (typeof body === 'string' && body.trim()) {
    return body.trim();
  }
  return statusText || messages.unknown;
}

/** Unwraps the ecosystem's `{status, result}` and `{success, message}` envelopes. */
function unwrap(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  if ('status' in body && 'result' in body) return (body as { result: unknown }).result;
  if ('success' in body && 'message' in body) return (body as { message: unknown }).message;
  return body;
}

/** A fetch-based HTTP transport: timeouts, JSON and form bodies, uniform errors, secrets redacted everywhere. */
export class Transport {
  readonly timeout: number;
  constructor(private readonly options: TransportOptions) {
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT;
  }

  debug(line: string): void {
    this.options.debug?.(this.options.secrets.redact(line));
  }

  redact(text: string): string {
    return this.options.secrets.redact(text);
  }

  /** Sends a request and answers whatever status came back; throws only on timeout or network failure. */
  async send(request: HttpRequest): Promise<HttpResponse> {
    const timeout = request.timeout ?? this.timeout;
    const headers: Record<string, string> = { ...request.headers };
    let body: RequestInit['body'];
    if (request.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = encodeForm(request.form);
    } else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.raw !== undefined) {
      body = request.raw;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeout);
    this.debug(`→ ${request.method} ${request.url}`);
    try {
      const response = await this.options.fetch(request.url, {
        method: request.method,
        headers,
        body,
        signal: controller.signal,
      });
      const text = response.status === 204 ? '' : await response.text();
      const decoded = this.decode(response, text);
      this.debug(`← ${response.status} ${request.method} ${request.url}`);
      return { status: response.status, statusText: response.statusText, headers: response.headers, body: decoded };
    } catch (error) {
      if (error instanceof APIError) throw error;
      if (controller.signal.aborted) {
        this.debug(`× timeout after ${timeout}ms ${request.method} ${request.url}`);
        throw new TimeoutError(`Timeout after ${timeout}ms`);
      }
      const cause = error as Error & { cause?: { code?: string; message?: string } };
      const detail = cause.cause?.code ?? cause.cause?.message ?? cause.message;
      this.debug(`× ${request.method} ${request.url}: ${detail}`);
      throw new APIError(
        this.redact(`${cause.message}${detail && detail !== cause.message ? ` (${detail})` : ''}`),
        0,
        'network_error',
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends a request and answers the decoded, unwrapped body of a 2xx; throws a typed error otherwise. */
  async request(request: HttpRequest): Promise<unknown> {
    const response = await this.send(request);
    return this.result(response);
  }

  result(response: HttpResponse): unknown {
    if (response.status >= 200 && response.status < 300) return response.status === 204 ? undefined : unwrap(response.body);
    throw this.toError(response);
  }

  toError(response: HttpResponse): APIError {
    const body = response.body;
    const code = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
    const message = this.redact(errorMessage(body, response.statusText || statusTexts[response.status] || ''));
    return errorFor(response.status, message, typeof code === 'string' ? code : undefined);
  }

  private decode(response: Response, text: string): unknown {
    if (response.status === 204 || text === '') return undefined;
    const type = response.headers.get('content-type') ?? '';
    if (!/^application\/(.+\+)?json/i.test(type)) return text;
    try {
      return JSON.parse(text);
    } catch {
      throw new APIError(messages.invalidResponse, response.status >= 400 ? response.status : 500, 'invalid_response');
    }
  }
}

/** Status texts, so errors read the same under fetch implementations that leave `statusText` empty (HTTP/2, undici). */
const statusTexts: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
