import { Type } from 'typebox';
import { OptionalString, op, open } from './cloud-helpers';

export const TokenResult = open({
  token_type: Type.String(),
  access_token: Type.String(),
  refresh_token: Type.Optional(Type.String()),
  expires_in: Type.Number(),
  scope: Type.Optional(Type.String()),
});

/** OAuth2 tokens and delegation tokens (short-lived JWTs for other audiences, such as a hub). */
export const cloudTokenOperations = {
  getAccessToken: op({
    name: 'getAccessToken',
    method: 'POST',
    path: '/oauth2/token',
    scope: null,
    auth: false,
    body: Type.Object(
      {
        grant_type: Type.String({ minLength: 1 }),
        client_id: OptionalString,
        client_secret: OptionalString,
        refresh_token: OptionalString,
        code: OptionalString,
        code_verifier: OptionalString,
        redirect_uri: OptionalString,
        username: OptionalString,
        password: OptionalString,
        scope: OptionalString,
      },
      { additionalProperties: true },
    ),
    consumes: ['application/x-www-form-urlencoded', 'application/json'],
    response: TokenResult,
    errors: [
      'invalid_request',
      'invalid_client',
      'invalid_grant',
      'unauthorized_client',
      'unsupported_grant_type',
      'rate_limited',
      'two_factor_required',
    ],
    summary:
      'OAuth2 token endpoint (form-encoded). The password grant of an account with two-factor sign-in also needs `otp` (a code from the authenticator app, or a recovery code). Client credentials by HTTP Basic or form fields. Grants: password, authorization_code, refresh_token, client_credentials and the login-token extended grant.',
  }),
  createDelegationToken: op({
    name: 'createDelegationToken',
    method: 'POST',
    path: '/delegation/token',
    scope: null,
    query: Type.Object({ audience: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), homeyId: OptionalString }),
    body: Type.Optional(Type.Object({ meta: Type.Optional(open({})), homeyId: OptionalString }, { additionalProperties: true })),
    response: Type.String(),
    summary: 'A short-lived JWT (RS512) for the audience, answered as a bare JSON string.',
  }),
  verifyDelegationToken: op({
    name: 'verifyDelegationToken',
    method: 'GET',
    path: '/delegation/verify',
    scope: null,
    auth: false,
    query: Type.Object({ token: Type.String({ minLength: 1 }), audience: OptionalString }),
    response: open({ sub: Type.String(), aud: Type.Union([Type.String(), Type.Array(Type.String())]), exp: Type.Number() }),
    summary: 'Verifies a delegation token and answers its claims.',
  }),
  getDelegationTokenKey: op({
    name: 'getDelegationTokenKey',
    method: 'GET',
    path: '/delegation/key',
    scope: null,
    auth: false,
    response: Type.String(),
    summary: 'The public key (PEM) delegation tokens are verified with.',
  }),
} as const;
