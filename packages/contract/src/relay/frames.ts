/**
 * The connect relay's tunnel protocol: one WebSocket from a hub to the cloud carries many streams (an HTTP
 * request with its answer, or an upgraded connection), each a sequence of binary frames. A frame is one byte of
 * type, four of stream id (big-endian), then the payload. The cloud opens streams; both sides send data.
 */
/** Where a hub opens its tunnel on the cloud (under the connect service's base). */
export const TUNNEL_PATH = '/connect/tunnel';

/**
 * The protocol this side speaks. Version 2 adds the {@link FrameType.request} and {@link FrameType.answer} frames,
 * which carry a request without a body, and a whole answer, in one frame each. Each side names its version in
 * {@link TUNNEL_PROTOCOL_HEADER} (the hub on its upgrade request, the cloud on its answer) and sends those frames
 * only to a peer that named 2 or more; without the header a peer speaks version 1. Every frame type is read
 * whatever was agreed.
 */
export const TUNNEL_PROTOCOL = 2;
export const TUNNEL_PROTOCOL_HEADER = 'x-hearth-tunnel-protocol';

/** The protocol a peer named in its {@link TUNNEL_PROTOCOL_HEADER}. */
export function peerProtocol(header: string | string[] | undefined): number {
  const version = Number(Array.isArray(header) ? header[0] : header);
  return Number.isInteger(version) && version > 0 ? version : 1;
}

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
  /** cloud → hub (protocol 2): `open` and `end` at once, a request without a body; payload as `open`. */
  request: 8,
  /**
   * hub → cloud (protocol 2): `head`, `data` and `end` at once, a whole answer; payload the head's JSON length
   * (four bytes, big-endian), the JSON {@link ResponseHead}, then the body.
   */
  answer: 9,
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

/** A frame; a string payload is written as UTF-8 straight into it. */
export function encodeFrame(type: FrameTypeCode, stream: number, payload?: Uint8Array | string): Buffer {
  let frame: Buffer;
  if (typeof payload === 'string') frame = withText(HEADER_BYTES, payload);
  else {
    frame = Buffer.allocUnsafe(HEADER_BYTES + (payload?.length ?? 0));
    if (payload) frame.set(payload, HEADER_BYTES);
  }
  frame[0] = type;
  frame.writeUInt32BE(stream, 1);
  return frame;
}

/** An {@link FrameType.answer} frame: the head, the body (a string as UTF-8) and the end. */
export function encodeAnswer(stream: number, head: ResponseHead, body: Uint8Array | string | undefined): Buffer {
  const json = JSON.stringify(head);
  const headBytes = Buffer.byteLength(json);
  const before = HEADER_BYTES + 4 + headBytes;
  let frame: Buffer;
  if (typeof body === 'string') frame = withText(before, body);
  else {
    frame = Buffer.allocUnsafe(before + (body?.length ?? 0));
    if (body) frame.set(body, before);
  }
  frame[0] = FrameType.answer;
  frame.writeUInt32BE(stream, 1);
  frame.writeUInt32BE(headBytes, HEADER_BYTES);
  frame.write(json, HEADER_BYTES + 4, headBytes, 'utf8');
  return frame;
}

/**
 * A new buffer of `before` bytes (for the caller to fill) followed by `text` as UTF-8. Written in one pass when
 * the text is mostly ASCII (measuring its UTF-8 length first would cost a pass of its own over a large body).
 */
function withText(before: number, text: string): Buffer {
  const room = text.length + (text.length >>> 4) + 8;
  const buffer = Buffer.allocUnsafe(before + room);
  const written = buffer.write(text, before, room, 'utf8');
  // A text that did not fit stopped short of the end by less than one character (at most four bytes).
  if (room - written >= 4) return buffer.subarray(0, before + written);
  const exact = Buffer.allocUnsafe(before + Buffer.byteLength(text));
  exact.write(text, before, 'utf8');
  return exact;
}

/** An {@link FrameType.answer} frame's payload as its head and body; `null` when it is not one. */
export function decodeAnswer(payload: Buffer): { head: ResponseHead; body: Buffer } | null {
  if (payload.length < 4) return null;
  const headBytes = payload.readUInt32BE(0);
  if (payload.length < 4 + headBytes) return null;
  try {
    const head = JSON.parse(payload.toString('utf8', 4, 4 + headBytes)) as ResponseHead;
    return { head, body: payload.subarray(4 + headBytes) };
  } catch {
    return null;
  }
}

/** Reads a frame, or `null` for bytes that are not one (the peer is then misbehaving). */
export function decodeFrame(bytes: Buffer): Frame | null {
  if (bytes.length < HEADER_BYTES) return null;
  const type = bytes[0] as number;
  if (type < FrameType.open || type > FrameType.answer) return null;
  return { type: type as FrameTypeCode, stream: bytes.readUInt32BE(1), payload: bytes.subarray(HEADER_BYTES) };
}
