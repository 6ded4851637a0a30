import { APIError } from '@hearth/client/browser';
import { strings } from '../app/strings';

/** The message of any error for a person: the hub's own (it is written for people), else a generic one. */
export const messageOf = (error: unknown): string =>
  error instanceof APIError && error.statusCode > 0 && error.statusCode < 500 ? error.message : strings.errors.generic;

/** Whether the hub refused the session itself (signed out elsewhere, token revoked). */
export const isSignedOut = (error: unknown): boolean => error instanceof APIError && error.statusCode === 401;

/** A message as a sentence of its own: a capital first, a full stop last (the hub's messages often end bare). */
export const asSentence = (text: string): string => {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};
