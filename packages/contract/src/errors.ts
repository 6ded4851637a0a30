/**
 * The one catalogue of errors Hearth's servers answer with. Every error body is
 * `{ error: <code>, error_description: <text>, statusCode: <status> }`; clients read the
 * text from `error_description` first.
 */
export const errorCatalogue = {
  missing_parameter: { status: 400, message: 'Missing Parameter' },
  invalid_parameter_type: { status: 400, message: 'Invalid Parameter Type' },
  invalid_parameter: { status: 400, message: 'Invalid Parameter' },
  invalid_body: { status: 400, message: 'Invalid request body' },
  unsupported_media_type: { status: 415, message: 'Unsupported Media Type' },
  payload_too_large: { status: 413, message: 'Payload Too Large' },
  uri_too_long: { status: 414, message: 'URI Too Long' },
  headers_too_large: { status: 431, message: 'Request Header Fields Too Large' },
  request_timeout: { status: 408, message: 'Request Timeout' },
  missing_token: { status: 401, message: 'Missing Token' },
  invalid_request: { status: 400, message: 'Invalid request' },
  invalid_client: { status: 401, message: 'Invalid client' },
  invalid_grant: { status: 400, message: 'Invalid grant' },
  unauthorized_client: { status: 400, message: 'Unauthorized client' },
  unsupported_grant_type: { status: 400, message: 'Unsupported grant type' },
  invalid_scope: { status: 400, message: 'Invalid scope' },
  invalid_token: { status: 401, message: 'Invalid or expired token' },
  invalid_credentials: { status: 401, message: 'Invalid credentials' },
  /** The password was right, and the account also asks for a code from an authenticator app (or a recovery code). */
  two_factor_required: { status: 401, message: 'Two-factor code required' },
  /** What was asked for is what a subscription unlocks, and the account it would be for has none that includes it. */
  subscription_required: { status: 402, message: 'A subscription that includes this is required' },
  missing_scopes: { status: 403, message: 'Missing Scopes' },
  forbidden: { status: 403, message: 'Forbidden' },
  private_operation: { status: 403, message: 'This operation is private' },
  not_found: { status: 404, message: 'Not Found' },
  route_not_found: { status: 404, message: 'Not Found' },
  method_not_allowed: { status: 405, message: 'Method Not Allowed' },
  conflict: { status: 409, message: 'Conflict' },
  /** A radio's call on a hub that has no controller for that radio (no Z-Wave stick configured, or it failed to open). */
  no_controller: { status: 409, message: 'No controller for this radio' },
  /** The Z-Wave controller is including or excluding a device already (one join at a time per network). */
  zwave_busy: { status: 409, message: 'The Z-Wave controller is busy' },
  /** No Z-Wave device joined (or left) the network while the controller waited for one. */
  zwave_timeout: { status: 408, message: 'No Z-Wave device answered in time' },
  /** The S2 PIN entered for a joining Z-Wave device is not the one on its label (its DSK's first five digits). */
  zwave_s2_pin_wrong: { status: 400, message: 'The S2 PIN is wrong' },
  /** A Z-Wave device joined, but its security could not be set up (no PIN given, the device gave up, …). */
  zwave_security_failed: { status: 409, message: 'The Z-Wave device joined without security' },
  /** A Z-Wave device joined but did not answer the questions of its interview. */
  zwave_interview_failed: { status: 502, message: 'The Z-Wave device did not answer its interview' },
  /** A Z-Wave device refused (or did not confirm) a configuration parameter a device setting names: the old value stays. */
  zwave_setting_refused: { status: 502, message: 'The Z-Wave device did not take the setting' },
  /** Removing a failed Z-Wave node that the controller does not hold failed (it answered): it can be excluded instead. */
  zwave_node_not_failed: { status: 409, message: 'The Z-Wave node is not failed' },
  /** A guest's checkout names an address that has an account: they sign in instead of making another. */
  account_exists: { status: 409, message: 'An account with this e-mail address exists: sign in' },
  /** A device's pairing code is not one: wrong length or digits, or its check digit does not match. */
  invalid_pairing_code: { status: 400, message: 'Not a valid pairing code' },
  /** A device in pairing mode matched the code's discriminator but refused its passcode: the code is not this device's. */
  pairing_code_refused: { status: 400, message: 'The device refused the pairing code' },
  /** No device in pairing mode with this code answered on the network before the commissioning timeout. */
  device_not_discovered: { status: 404, message: 'No device with this pairing code was found on the network' },
  /** The device of this pairing code is already commissioned onto the hub's fabric. */
  already_commissioned: { status: 409, message: 'The device is already commissioned' },
  /** A hub claim code that claims no hub: mistyped, used already, or never given (which of these is not said). */
  claim_code_invalid: { status: 403, message: 'This code does not claim any hub' },
  /** A hub claim code that was right but is too old: the hub shows a new one. */
  claim_code_expired: { status: 410, message: 'This claim code has expired' },
  /** An app whose manifest says `runtime: "python"`: valid in the ecosystem, but the hub runs only Node.js apps yet. */
  python_apps_unsupported: { status: 400, message: 'Python apps are not supported yet' },
  gone: { status: 410, message: 'Gone' },
  rate_limited: { status: 429, message: 'Too Many Requests' },
  offline: { status: 500, message: 'Offline' },
  internal_error: { status: 500, message: 'Internal Server Error' },
  not_implemented: { status: 501, message: 'Not Implemented' },
  unavailable: { status: 503, message: 'Service Unavailable' },
  /** The connect relay has no tunnel to the hub a request is for (it is off, or has no connection). */
  hub_offline: { status: 503, message: 'Homey Offline' },
  /** The connect relay lost the hub's tunnel while relaying a request. */
  bad_gateway: { status: 502, message: 'The hub’s connection closed before it answered' },
  /** An app refused a request the hub passed it (a capability write, a flow card, its web API): its message. */
  app_error: { status: 502, message: 'The app refused the request' },
  /** An app (or another part the hub waits for) did not answer in time. */
  timeout: { status: 504, message: 'Gateway Timeout' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** The uniform error body of every Hearth server. */
export interface ErrorBody {
  error: string;
  error_description: string;
  statusCode: number;
}

/** A coded error: handlers throw it and the transport turns it into an {@link ErrorBody}. */
export class HearthError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;

  constructor(code: ErrorCode, description?: string) {
    const entry = errorCatalogue[code];
    super(description ?? entry.message);
    this.name = 'HearthError';
    this.code = code;
    this.statusCode = entry.status;
  }

  toBody(): ErrorBody {
    return { error: this.code, error_description: this.message, statusCode: this.statusCode };
  }
}

/** Shorthand for the most common thrown errors. */
export const notFound = (what: string, id?: string): HearthError =>
  new HearthError('not_found', id === undefined ? `${what} not found` : `${what} not found: ${id}`);

export const invalidParameter = (name: string, reason: string): HearthError =>
  new HearthError('invalid_parameter', `Invalid Parameter: ${name}. ${reason}`);

export const isErrorBody = (value: unknown): value is ErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ErrorBody).error === 'string' &&
  typeof (value as ErrorBody).statusCode === 'number';
