import { APIError, OfflineError, TimeoutError } from '@hearth/client/browser';
import { describe, expect, it } from 'vitest';
import { formError } from './errors';

describe('formError', () => {
  it('names the field of the contract’s messages and words schema rules for people', () => {
    expect(formError(new APIError('Invalid Parameter: acceptTerms. must be equal to constant', 400))).toEqual({
      field: 'acceptTerms',
      message: 'Accept the terms of service to create an account.',
    });
    expect(formError(new APIError('Missing Parameter: firstname', 400))).toEqual({
      field: 'firstname',
      message: 'Enter your first name.',
    });
    expect(formError(new APIError('Invalid Parameter: user.email. Change the e-mail address elsewhere', 400))).toEqual({
      field: 'email',
      message: 'Change the e-mail address elsewhere',
    });
    expect(
      formError(new APIError('Invalid Parameter: password. This is one of the most common passwords. Choose more.', 400)),
    ).toEqual({
      field: 'password',
      message: 'This is one of the most common passwords. Choose more.',
    });
  });

  it('keeps other refusals for the whole form', () => {
    expect(formError(new APIError('The password is not correct', 401))).toEqual({
      field: null,
      message: 'The password is not correct',
    });
    expect(formError(new TypeError('fetch failed')).field).toBeNull();
  });

  it('words a call that timed out or found no server as sentences, not the client’s developer text', () => {
    expect(formError(new TimeoutError('Timeout after 30000ms'))).toEqual({
      field: null,
      message: 'The server did not answer. Try again.',
    });
    expect(formError(new OfflineError()).message).toBe('The server could not be reached. Check your connection and try again.');
  });
});
