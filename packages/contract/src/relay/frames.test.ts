import { describe, expect, it } from 'vitest';
import { decodeAnswer, decodeFrame, encodeAnswer, encodeFrame, FrameType } from './frames';

describe('frames with text', () => {
  // ASCII (one pass), a little non-ASCII (fits the room left), and text far longer in UTF-8 than in characters.
  const texts = ['{"zones":1}'.repeat(4000), `${'a'.repeat(5000)}é✓`, 'héllo ✓ 😀'.repeat(3000), '😀', ''];

  it('carry a string as UTF-8, whatever its characters', () => {
    for (const text of texts) {
      const frame = decodeFrame(encodeFrame(FrameType.data, 7, text));
      expect(frame?.type).toBe(FrameType.data);
      expect(frame?.stream).toBe(7);
      expect(frame?.payload.toString()).toBe(text);
      expect(frame?.payload.length).toBe(Buffer.byteLength(text));
    }
  });

  it('carry a whole answer: its head and its body, a string or bytes', () => {
    const head = { status: 200, statusText: 'OK', headers: ['content-type', 'text/plain; charset=utf-8'] };
    for (const body of [...texts, Buffer.from([0, 1, 2, 255]), undefined]) {
      const frame = decodeFrame(encodeAnswer(9, head, body));
      expect(frame?.type).toBe(FrameType.answer);
      const answer = decodeAnswer(frame?.payload as Buffer);
      expect(answer?.head).toEqual(head);
      expect(answer?.body.equals(Buffer.from(body ?? ''))).toBe(true);
    }
  });
});
