import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('certificate', '/certificate');

/** Limits of the certificate authority. */
export const CERTIFICATE_LIMITS = {
  /** A hub's certificate is valid this long; hubs ask again well before it ends. */
  lifetimeDays: 90,
} as const;

export const HubCertificate = Type.Object({
  /** The hub's certificate (PEM), for the names and addresses it asked for, signed by the cloud's CA. */
  certificate: Type.String(),
  /** The CA certificate (PEM) clients verify the hub's certificate against. */
  ca: Type.String(),
  /** The DNS names and IP addresses the certificate is for. */
  names: Type.Array(Type.String()),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
});

/** The cloud's small certificate authority under `/certificate`: TLS certificates for hubs' local secure addresses. */
export const certificateOperations = {
  getCertificate: op({
    name: 'getCertificate',
    method: 'GET',
    path: '/homey',
    scope: null,
    auth: false,
    query: Type.Object(
      {
        secret: Type.String({ minLength: 1, maxLength: 4000 }),
        /** A PKCS#10 certificate signing request (PEM) made with the hub's own key, which never leaves the hub. */
        csr: Type.String({ minLength: 100, maxLength: 8000 }),
      },
      { additionalProperties: false },
    ),
    response: HubCertificate,
    errors: ['forbidden', 'invalid_parameter', 'rate_limited'],
    summary:
      'Signs a certificate for a hub’s local secure address (`localUrlSecure`): the subject alternative names (IP addresses and DNS names) of `csr`, with the hub id as common name, valid for 90 days.',
    description:
      '`secret` is the hub’s secret (`hubSecret` of `@hearth/contract/hub-secret`): the certificate names that hub. The request’s own signature must verify (the hub holds the key).',
  }),
  getCertificateAuthority: op({
    name: 'getCertificateAuthority',
    method: 'GET',
    path: '/ca',
    scope: null,
    auth: false,
    response: Type.Object({ certificate: Type.String() }),
    summary: 'The cloud’s CA certificate (PEM): clients trust hubs’ local secure addresses signed by it.',
  }),
} as const;
