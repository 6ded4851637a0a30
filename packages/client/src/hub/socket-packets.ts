/**
 * socket.io packets (protocol v5) as the client speaks them: text packets, `<type>[<namespace>,][<ack id>][<JSON>]`,
 * checked on the way in as socket.io's own parser checks them.
 *
 * Why not socket.io-parser: the client needs only this text form (the hub sends no binary, the client sends
 * plain JSON), and the parser's decoder comes with binary-attachment reassembly and an event emitter that cost
 * 1.5 KB gzip of the browser bundle's 24 KB budget (issue 21), more than this whole format. Binary packets
 * (types 5 and 6) are refused, which closes the connection with `parse error`.
 */

export const PacketType = { CONNECT: 0, DISCONNECT: 1, EVENT: 2, ACK: 3, CONNECT_ERROR: 4 } as const;
export type PacketType = (typeof PacketType)[keyof typeof PacketType];

export interface Packet {
  type: PacketType;
  nsp: string;
  id?: number;
  data?: unknown;
}

/** Event names socket.io keeps for itself: an incoming event with one of them is not a packet. */
const RESERVED_EVENTS = new Set(['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener', 'removeListener']);

const isObject = (value: unknown) => Object.prototype.toString.call(value) === '[object Object]';

/** Whether `data` is what a packet of `type` may carry (socket.io's `isPayloadValid`). */
function validPayload(type: PacketType, data: unknown): boolean {
  switch (type) {
    case PacketType.CONNECT:
      return isObject(data);
    case PacketType.DISCONNECT:
      return data === undefined;
    case PacketType.CONNECT_ERROR:
      return typeof data === 'string' || isObject(data);
    case PacketType.EVENT:
      return (
        Array.isArray(data) && (typeof data[0] === 'number' || (typeof data[0] === 'string' && !RESERVED_EVENTS.has(data[0])))
      );
    default:
      return Array.isArray(data);
  }
}

export function encodePacket({ type, nsp, id, data }: Packet): string {
  return `${type}${nsp !== '/' ? `${nsp},` : ''}${id ?? ''}${data == null ? '' : JSON.stringify(data)}`;
}

/** Decodes one text packet; throws on anything socket.io's parser would refuse, and on binary packets. */
export function decodePacket(text: string): Packet {
  // The namespace runs to the first comma, or to the end where there is none (as socket.io reads it).
  const match = /^([0-4])(?:(\/[^,]*),?)?(\d*)(.*)$/s.exec(text);
  if (!match) throw new Error('not a socket.io text packet');
  const [, type, namespace, id, json] = match as unknown as [string, string, string | undefined, string, string];
  const packet: Packet = { type: Number(type) as PacketType, nsp: namespace ?? '/' };
  if (id) packet.id = Number(id);
  if (json) {
    packet.data = JSON.parse(json);
    if (!validPayload(packet.type, packet.data)) throw new Error('invalid payload');
  }
  return packet;
}
