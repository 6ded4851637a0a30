import { describe, expect, it } from 'vitest';
import { SerialFrameSplitter } from './serial-bridge';

const hex = (frames: Buffer[]) => frames.map((f) => f.toString('hex'));

describe('the virtual Z-Wave network cuts the host’s TCP stream into Serial API frames', () => {
  it('separates an ACK merged with the next request, and a request split across reads', () => {
    const splitter = new SerialFrameSplitter();
    // ACK, then GetControllerVersion (SOF, length 3, REQ, 0x15, checksum), in one read.
    expect(hex(splitter.push(Buffer.from('0601030015e9', 'hex')))).toEqual(['06', '01030015e9']);
    // A request arriving in two reads comes out once, whole.
    expect(hex(splitter.push(Buffer.from('010300', 'hex')))).toEqual([]);
    expect(hex(splitter.push(Buffer.from('07fb15', 'hex')))).toEqual(['01030007fb', '15']);
  });

  it('drops bytes outside any frame, as a controller does', () => {
    const splitter = new SerialFrameSplitter();
    expect(hex(splitter.push(Buffer.from('ff0006', 'hex')))).toEqual(['06']);
  });
});
