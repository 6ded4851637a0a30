import { describe, expect, it } from 'vitest';
import { addFiles, messageField, subjectField } from './utils/validation';

const file = (name: string, size = 10) => {
  const f = new File(['x'], name);
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('validation rules', () => {
  it('message: cut at 10000, valid from 20 characters', () => {
    expect(messageField('a'.repeat(19)).valid).toBe(false);
    expect(messageField('a'.repeat(20)).valid).toBe(true);
    expect(messageField('a'.repeat(10_050)).text).toHaveLength(10_000);
    expect(messageField('').required).toBe(true);
  });

  it('subject: cut at 200, valid from 1 character', () => {
    expect(subjectField('').valid).toBe(false);
    expect(subjectField('x').valid).toBe(true);
    expect(subjectField('s'.repeat(250)).text).toHaveLength(200);
  });

  it('attachments: duplicates by name skipped silently, 50 MB and 12 files limits with their messages', () => {
    const first = addFiles([], [file('a.png'), file('a.png'), file('b.png')]);
    expect(first).toEqual({
      files: [expect.objectContaining({ name: 'a.png' }), expect.objectContaining({ name: 'b.png' })],
      errors: [],
    });
    expect(addFiles([], [file('big.mp4', 50 * 1024 * 1024 + 1)])).toEqual({
      files: [],
      errors: ['File exceeds the maximum file size of 50MB and could not be added.'],
    });
    expect(addFiles([], [file('ok.mp4', 50 * 1024 * 1024)]).files).toHaveLength(1);
    const many = addFiles(
      [],
      Array.from({ length: 13 }, (_, i) => file(`f${i}.png`)),
    );
    expect(many.files).toHaveLength(12);
    expect(many.errors).toEqual(['Maximum number of attachments reached. Cannot add more than 12 files.']);
  });
});

describe('limits shared with the server', () => {
  it('match the helpdesk contract', async () => {
    const { HELPDESK_LIMITS } = await import('@hearth/contract');
    const constants = await import('../../config/constants');
    expect({
      subjectMinLength: constants.SUBJECT_MIN_LENGTH,
      subjectMaxLength: constants.SUBJECT_MAX_LENGTH,
      messageMinLength: constants.MESSAGE_MIN_LENGTH,
      messageMaxLength: constants.MESSAGE_MAX_LENGTH,
      maxAttachments: constants.MAX_ATTACHMENTS,
      maxAttachmentBytes: constants.MAX_ATTACHMENT_BYTES,
    }).toEqual(HELPDESK_LIMITS);
  });
});
