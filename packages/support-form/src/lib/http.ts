/** An HTTP answer that was not 2xx, with the server's error text. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface RequestOptions {
  method?: string;
  token?: string | null;
  headers?: Record<string, string>;
  /** JSON-encoded unless it is a string, a Blob or URLSearchParams. */
  body?: unknown;
  timeoutMs?: number;
}

const messageOf = (body: unknown, fallback: string): { message: string; code?: string } => {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['error_description', 'error_message', 'error', 'message']) {
      if (typeof b[key] === 'string' && b[key])
        return { message: b[key] as string, code: typeof b.error === 'string' ? b.error : undefined };
    }
  }
  if (typeof body === 'string' && body) return { message: body };
  return { message: fallback };
};

/** One JSON call: answers the parsed body (or `undefined` for 204), throws {@link HttpError} otherwise. */
export async function request<T>(url: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof URLSearchParams || options.body instanceof Blob || typeof options.body === 'string') {
    body = options.body as BodyInit;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const signal = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
  let response: Response;
  try {
    response = await fetch(url, { method: options.method ?? 'GET', headers, body, signal });
  } catch (cause) {
    // No answer at all: as the client library does, a timeout is a 408 and an unreachable server is offline (500).
    if ((cause as { name?: unknown } | null)?.name === 'TimeoutError') throw new HttpError(408, 'Timeout', 'timeout');
    throw new HttpError(500, 'Offline', 'offline');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!response.ok) {
    const { message, code } = messageOf(parsed, response.statusText || `HTTP ${response.status}`);
    throw new HttpError(response.status, message, code);
  }
  return parsed as T;
}
