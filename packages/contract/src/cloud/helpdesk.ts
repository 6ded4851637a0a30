import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('helpdesk', '/api/helpdesk');

/** The limits the support form enforces, enforced again by the server. */
export const HELPDESK_LIMITS = {
  subjectMinLength: 1,
  subjectMaxLength: 200,
  messageMinLength: 20,
  messageMaxLength: 10_000,
  maxAttachments: 12,
  maxAttachmentBytes: 50 * 1024 * 1024,
} as const;

const Text = (maxLength: number) => Type.String({ maxLength });

export const HelpdeskArticle = Type.Object({
  id: Type.String(),
  name: Type.String(),
  html_url: Type.String(),
});

/** The ticket the support form sends (seed section 7), field for field. */
export const TicketRequest = Type.Object(
  {
    subject: Type.String({ minLength: HELPDESK_LIMITS.subjectMinLength, maxLength: HELPDESK_LIMITS.subjectMaxLength }),
    message: Type.String({ minLength: HELPDESK_LIMITS.messageMinLength, maxLength: HELPDESK_LIMITS.messageMaxLength }),
    name: Text(200),
    email: Text(320),
    tags: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }),
    diagnosticReport: Text(2000),
    homeyApps: Text(50_000),
    homeyAppsCount: Type.Integer({ minimum: 0 }),
    homeyBridges: Type.Integer({ minimum: 0 }),
    homeyId: Text(100),
    homeyLanguage: Text(20),
    homeyLicenses: Text(2000),
    homeyModel: Text(100),
    homeyModelName: Text(200),
    homeyPlatform: Text(20),
    homeyRegion: Text(50),
    homeySoftwareVersion: Text(50),
    homeyUsers: Type.Integer({ minimum: 0 }),
    underVoltagePercentage: Text(100),
    underVoltageOccured: Type.Union([Type.Literal('yes'), Type.Literal('no')]),
    appId: Text(200),
    driverId: Text(300),
    orderId: Text(100),
    subscriptionId: Text(200),
    subscriptions: Text(5000),
    supportFormPath: Text(2000),
    uploadTokens: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: HELPDESK_LIMITS.maxAttachments }),
  },
  { additionalProperties: false },
);

export const StoredTicket = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  ticket: Type.Object({}, { additionalProperties: true }),
  attachments: Type.Array(
    Type.Object({ token: Type.String(), filename: Type.String(), mimetype: Type.String(), size: Type.Number() }),
  ),
});

export const helpdeskOperations = {
  getArticle: op({
    name: 'getArticle',
    method: 'GET',
    path: '/article',
    scope: null,
    auth: false,
    query: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
    response: HelpdeskArticle,
    errors: ['not_found'],
    summary: "A knowledge-base article's name and the address of its page.",
  }),
  uploadAttachment: op({
    name: 'uploadAttachment',
    method: 'POST',
    path: '/attachment',
    scope: null,
    query: Type.Object({
      filename: Type.String({ minLength: 1, maxLength: 255 }),
      mimetype: Type.String({ minLength: 1, maxLength: 255 }),
    }),
    response: Type.Object({ token: Type.String() }),
    errors: ['payload_too_large', 'unsupported_media_type', 'forbidden'],
    summary:
      'Stores one attachment of a coming ticket. The body is the raw file, sent as application/octet-stream (at most 50 MB); answers the upload token.',
  }),
  createTicket: op({
    name: 'createTicket',
    method: 'POST',
    path: '/ticket',
    scope: null,
    body: TicketRequest,
    response: Type.Object({ ticketCreated: Type.Boolean(), id: Type.String() }),
    errors: ['invalid_parameter', 'forbidden'],
    summary:
      'Creates a support ticket with its uploaded attachments and e-mails the customer a confirmation. The same Idempotency-Key header creates no second ticket.',
  }),
  getTicket: op({
    name: 'getTicket',
    method: 'GET',
    path: '/ticket/:id',
    scope: null,
    private: true,
    params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
    response: StoredTicket,
    errors: ['not_found', 'private_operation'],
    summary: 'A stored ticket with its payload and attachments, for the support team (internal sessions only).',
  }),
} as const;
