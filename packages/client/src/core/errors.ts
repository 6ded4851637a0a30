import { ParameterError } from '@hearth/contract/client';

export { ParameterError };

/**
 * Client-side messages of the seed's error catalogue (section 8), verbatim. Where the seed says `{product}`
 * the library writes `Homey`, the capitalised wire name: code in the ecosystem matches these strings, so they
 * stay identical to what its own client throws (the Hearth brand is for UI text, not wire-facing messages).
 */
export const messages = {
  unknown: 'Unknown API Error',
  offline: 'Homey Offline',
  invalidResponse: 'Invalid response from server',
  invalidHubId: 'Invalid Homey ID',
  noStrategies: 'No Discovery Strategies Available',
  notConnected: 'Not connected after connect.',
  subscribeTimeout: (uri: string) => `Failed to subscribe to ${uri} (Timeout after 10000ms).`,
  handshakeTimeout: 'Failed to handshake client (Timeout after 10000ms).',
  hubNotFound: (id: string) => `Homey Not Found: ${id}`,
  noHub: 'No Homey Available',
  unsupportedApiVersion: 'Unsupported Homey API Version',
  noHubAtAddress: 'No Homey Found At Address',
  missingToken: 'Missing Token',
  missingRefreshToken: 'Missing Refresh Token',
  missingCloud: 'Cannot Sign In: Missing AthomCloudAPI',
  badStore: 'The store must be a storage adapter',
  badToken: 'The token must be a token object',
} as const;

/** An error a server answered, or a failure talking to one. `statusCode` is the HTTP status (or its equivalent). */
export class APIError extends Error {
  readonly statusCode: number;
  /** The server's machine-readable code (`error` field), when it sent one. */
  readonly code: string | undefined;

  constructor(message: string = messages.unknown, statusCode = 500, code?: string) {
    super(message || messages.unknown);
    this.name = 'APIError';
    this.statusCode = statusCode;
    this.code = code;
  }
}

/** The hub could not be reached at any of its addresses. */
export class OfflineError extends APIError {
  constructor(message: string = messages.offline) {
    super(message, 500);
    this.name = 'OfflineError';
  }
}

export class NotFoundError extends APIError {
  constructor(message = 'Not Found', code?: string) {
    super(message, 404, code);
    this.name = 'NotFoundError';
  }
}

/** A call, ping, handshake or subscription that did not answer in time. */
export class TimeoutError extends APIError {
  constructor(message = 'Timeout', code?: string) {
    super(message, 408, code);
    this.name = 'TimeoutError';
  }
}

/** Maps a status and message to the most specific error class. */
export function errorFor(statusCode: number, message: string, code?: string): APIError {
  if (statusCode === 404) return new NotFoundError(message, code);
  if (statusCode === 408) return new TimeoutError(message, code);
  return new APIError(message, statusCode, code);
}
