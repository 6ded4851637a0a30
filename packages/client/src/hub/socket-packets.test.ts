import { Decoder, Encoder, type Packet as OraclePacket } from 'socket.io-parser';
import { describe, expect, it } from 'vitest';
import { decodePacket, encodePacket, type Packet, PacketType } from './socket-packets';

// socket.io's own parser (what the hub's server runs) is the oracle: every text packet must be written and read
// exactly as it writes and reads it.
const oracleEncode = (packet: Packet) => new Encoder().encode(packet as OraclePacket) as string[];
function oracleDecode(text: string): Packet {
  let decoded: Packet | undefined;
  new Decoder()
    .on('decoded', (packet: OraclePacket) => {
      decoded = packet as Packet;
    })
    .add(text);
  return decoded as Packet;
}

const packets: Packet[] = [
  { type: PacketType.CONNECT, nsp: '/' },
  { type: PacketType.CONNECT, nsp: '/manager/devices', data: { token: 'abc' } },
  { type: PacketType.DISCONNECT, nsp: '/manager/flow' },
  { type: PacketType.EVENT, nsp: '/', data: ['subscribe', 'homey:manager:devices'] },
  { type: PacketType.EVENT, nsp: '/manager/devices', id: 12, data: ['device.update', { id: 'a,b', on: true, text: '4/2' }] },
  { type: PacketType.ACK, nsp: '/', id: 0, data: [null, { ok: 1 }] },
  { type: PacketType.ACK, nsp: '/realtime', id: 907, data: [] },
  { type: PacketType.CONNECT_ERROR, nsp: '/manager/zones', data: { message: 'Not authorised' } },
  { type: PacketType.CONNECT_ERROR, nsp: '/', data: 'Invalid namespace' },
];

describe('socket.io text packets', () => {
  it.each(packets)('encodes %j as socket.io does and reads it back', (packet) => {
    const text = encodePacket(packet);
    expect([text]).toEqual(oracleEncode(packet));
    expect(decodePacket(text)).toEqual(oracleDecode(text));
    expect(decodePacket(text)).toEqual(packet);
  });

  it('reads a namespace without its closing comma, as socket.io does', () => {
    expect(decodePacket('0/admin')).toEqual(oracleDecode('0/admin'));
    expect(decodePacket('0/admin')).toEqual({ type: PacketType.CONNECT, nsp: '/admin' });
  });

  it.each([
    ['an unknown type', '9["x"]'],
    ['a binary event (never sent by the hub)', '51-["x",{"_placeholder":true,"num":0}]'],
    ['a reserved event name', '2["connect"]'],
    ['an event that is not an array', '2{"x":1}'],
    ['an event without a name', '2[{}]'],
    ['a connect that carries an array', '0[1]'],
    ['a disconnect with a payload', '1{}'],
    ['an ack that is not an array', '31"x"'],
    ['text that is not JSON', '2["x"'],
    ['a comma without a namespace', '2,["x"]'],
  ])('refuses %s as socket.io does', (_, text) => {
    expect(() => decodePacket(text)).toThrow();
    if (!text.startsWith('5')) expect(() => oracleDecode(text)).toThrow();
  });
});
