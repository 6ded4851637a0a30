import { APIError, OfflineError, TimeoutError } from '@hearth/client/browser';
import { strings } from '../app/strings';

/** A server's refusal as a form shows it: the field it names (to show the message beside it), and the text. */
export interface FormError {
  field: string | null;
  message: string;
}

/** What the contract's schema words (`must match format "email"`) mean to a person, by field. */
const plain = (field: string): string | undefined => {
  const t = strings.errors;
  return (
    { email: t.email, password: t.password, firstname: t.firstname, acceptTerms: t.acceptTerms, code: t.code } as Record<
      string,
      string
    >
  )[field];
};

/**
 * Reads the field out of the contract's messages (`Missing Parameter: firstname`, `Invalid Parameter: password.
 * This is one of the most common passwords.`); anything else is a message for the whole form.
 */
export function formError(error: unknown): FormError {
  if (!(error instanceof APIError)) return { field: null, message: strings.errors.unknown };
  // The client's own words for these ("Timeout after 30000ms") are for developers.
  if (error instanceof TimeoutError) return { field: null, message: strings.errors.timeout };
  if (error instanceof OfflineError) return { field: null, message: strings.errors.offline };
  const match = /^(Missing Parameter|Invalid Parameter Type|Invalid Parameter): (\w+(?:\.\w+)*)\.?\s*(.*)$/.exec(error.message);
  if (!match) return { field: null, message: error.message };
  const field = (match[2] as string).split('.').pop() as string;
  const detail = match[3] ?? '';
  const schemaWords = match[1] !== 'Invalid Parameter' || /^must /.test(detail) || detail === '';
  return {
    field,
    message: schemaWords ? (plain(field) ?? strings.errors.checkField(detail || strings.errors.required)) : detail,
  };
}

/** The message of any error, for a notice. */
export const messageOf = (error: unknown): string => formError(error).message;
