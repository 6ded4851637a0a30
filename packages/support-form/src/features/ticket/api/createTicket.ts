import { request } from '../../../lib/http';

/** The ticket payload of seed section 7, field for field. */
export interface TicketPayload {
  subject: string;
  message: string;
  name: string;
  email: string;
  tags: string[];
  diagnosticReport: string;
  homeyApps: string;
  homeyAppsCount: number;
  homeyBridges: number;
  homeyId: string;
  homeyLanguage: string;
  homeyLicenses: string;
  homeyModel: string;
  homeyModelName: string;
  homeyPlatform: string;
  homeyRegion: string;
  homeySoftwareVersion: string;
  homeyUsers: number;
  underVoltagePercentage: string;
  underVoltageOccured: 'yes' | 'no';
  appId: string;
  driverId: string;
  orderId: string;
  subscriptionId: string;
  subscriptions: string;
  supportFormPath: string;
  uploadTokens: string[];
}

/** `POST /api/helpdesk/ticket`; a retry with the same idempotency key creates no second ticket. */
export const createTicket = (cloudUrl: string, token: string | null, payload: TicketPayload, idempotencyKey: string) =>
  request<{ ticketCreated: boolean }>(`${cloudUrl}/api/helpdesk/ticket`, {
    method: 'POST',
    token,
    body: payload,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
