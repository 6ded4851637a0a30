/**
 * The connect relay's tunnel protocol: one WebSocket from a hub to the cloud carries many streams (an HTTP
 * request with its answer, or an upgraded connection), each a sequence of binary frames. A frame is one byte of
 * type, four of stream id (big-endian), then the payload. The cloud opens streams; both sides send data.
 */
/** Where a hub opens its tunnel on the cloud (under the connect service's base). */
export const TUNNEL_PATH = '/connect/tunnel';

export const FrameType = {
  /** cloud → hub: a request arrived for the hub; payload JSON {@link OpenRequest}. */
  open: 1,
  /** hub → cloud: the hub's answer head; payload JSON {@link ResponseHead}. */
  head: 2,
  /** Body bytes (or, after an upgrade, the connection's bytes) in the direction sent. */
  data: 3,
  /** No more bytes in the direction sent. */
  end: 4,
  /** The stream is abandoned (payload: a reason); either side. */
  reset: 5,
  /** The sender's buffer for this stream is full: stop sending data until {@link FrameType.resume}. */
  pause: 6,
  resume: 7,
} as const;

export type FrameTypeCode = (typeof FrameType)[keyof typeof FrameType];

/** What the cloud tells the hub about a request it relays. */
export interface OpenRequest {
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  /** Header names and values in the order received (Node's `rawHeaders`). */
  headers: string[];
  /** The client's address as the cloud saw it, so the hub's per-address limits count the client. */
  remoteAddress: string;
  /**
   * The cloud itself makes this request (a connect call it forwards, `/api/connect/…`), not a client through the
   * relay. Only the cloud opens streams, so a client cannot set it.
   */
  fromCloud?: boolean;
}

export interface ResponseHead {
  status: number;
  statusText: string;
  headers: string[];
}

export interface Frame {
  type: FrameTypeCode;
  stream: number;
  payload: Buffer;
}

const HEADER_BYTES = 5;

export function encodeFrame(type: FrameTypeCode, stream: number, payload?: Uint8Array | string): Buffer {
  const body = payload === undefined ? undefined : typeof payload === 'string' ? Buffer.from(payload) : payload;
  const frame = Buffer.allocUnsafe(HEADER_BYTES + (body?.length ?? 0));
  frame[0] = type;
  frame.writeUInt32BE(stream, 1);
  if (body) frame.set(body, HEADER_BYTES);
  return frame;
}

/** Reads a frame, or `null` for bytes that are not one (the peer is then misbehaving). */
export function decodeFrame(bytes: Buffer): Frame | null {
  if (bytes.length < HEADER_BYTES) return null;
  const type = bytes[0] as number;
  if (type < FrameType.open || type > FrameType.resume) return null;
  return { type: type as FrameTypeCode, stream: bytes.readUInt32BE(1), payload: bytes.subarray(HEADER_BYTES) };
}
