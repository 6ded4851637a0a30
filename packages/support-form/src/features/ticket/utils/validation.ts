import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS,
  MESSAGE_MAX_LENGTH,
  MESSAGE_MIN_LENGTH,
  SUBJECT_MAX_LENGTH,
  SUBJECT_MIN_LENGTH,
} from '../../../config/constants';
import { texts } from '../../../config/texts';
import type { FieldValue } from '../../tree/types';

/** The message field: required, cut at 10000 characters, valid from 20. */
export function messageField(text: string): FieldValue {
  const cut = text.slice(0, MESSAGE_MAX_LENGTH);
  return { text: cut, required: true, valid: cut.length >= MESSAGE_MIN_LENGTH };
}

/** The subject field (tickets only): required, cut at 200 characters, valid from 1. */
export function subjectField(text: string): FieldValue {
  const cut = text.slice(0, SUBJECT_MAX_LENGTH);
  return { text: cut, required: true, valid: cut.trim().length >= SUBJECT_MIN_LENGTH };
}

/** A final step may be sent when no required field is invalid. */
export const isSendable = (fields: (FieldValue | undefined)[]): boolean => fields.every((f) => !f?.required || f.valid);

export const fieldError = {
  message: texts.messageError,
  subject: texts.subjectError,
};

export interface AddFilesResult {
  files: File[];
  errors: string[];
}

/**
 * Adds picked or dropped files to the attachments: a file named like one already added is skipped
 * silently, a file over 50 MB is refused, and no more than 12 files are kept.
 */
export function addFiles(current: readonly File[], incoming: Iterable<File>): AddFilesResult {
  const files = [...current];
  const errors = new Set<string>();
  for (const file of incoming) {
    if (files.some((f) => f.name === file.name)) continue;
    if (file.size > MAX_ATTACHMENT_BYTES) {
      errors.add(texts.attachmentTooLarge);
      continue;
    }
    if (files.length >= MAX_ATTACHMENTS) {
      errors.add(texts.tooManyAttachments);
      continue;
    }
    files.push(file);
  }
  return { files, errors: [...errors] };
}
