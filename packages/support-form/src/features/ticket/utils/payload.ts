import { UNDER_VOLTAGE_THRESHOLD } from '../../../config/constants';
import type { User } from '../../../types/entities';
import type { Collected } from '../../tree/types';
import type { TicketPayload } from '../api/createTicket';

export interface TicketContext {
  user: User;
  collected: Collected;
  subject: string;
  message: string;
  uploadTokens: string[];
  /** Installed apps of the selected hub (id and version). */
  apps: { id: string; version: string }[];
  diagnosticReport: string;
  underVoltage: { percentage: string; ratio: number | null };
  /** The hub's own `system.getInfo` answer, for facts the cloud's record of the hub lacks. */
  hubInfo?: Record<string, unknown> | null;
}

/**
 * The ticket payload of seed section 7: tags are the unique collected tags plus the hub model, apps are lines
 * of `id (vversion)`, the path is joined with arrows and the subscriptions with commas.
 */
export function buildTicketPayload(ctx: TicketContext): TicketPayload {
  const { collected, user } = ctx;
  const hub = collected.hub;
  const tags = [...new Set([...collected.tags, ...(hub?.model ? [hub.model] : [])])];
  const fromHub = (key: string): string | undefined => {
    const value = ctx.hubInfo?.[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  return {
    subject: ctx.subject,
    message: ctx.message,
    name: `${user.firstname} ${user.lastname}`.trim(),
    email: user.email,
    tags,
    diagnosticReport: ctx.diagnosticReport,
    homeyApps: ctx.apps.map((a) => `${a.id} (v${a.version})`).join('\n'),
    homeyAppsCount: ctx.apps.length,
    homeyBridges: hub?.bridgesCount ?? 0,
    homeyId: hub?.id ?? '',
    homeyLanguage: hub?.language || fromHub('language') || '',
    homeyLicenses: hub?.licenses.join(', ') ?? '',
    homeyModel: hub?.model ?? '',
    homeyModelName: (hub && hub.modelName !== hub.model ? hub.modelName : fromHub('modelName')) ?? hub?.modelName ?? '',
    homeyPlatform: hub?.platform ?? '',
    homeyRegion: hub?.region || fromHub('region') || '',
    homeySoftwareVersion: hub?.softwareVersion || fromHub('softwareVersion') || '',
    homeyUsers: hub?.usersCount ?? 0,
    underVoltagePercentage: ctx.underVoltage.percentage,
    underVoltageOccured: ctx.underVoltage.ratio !== null && ctx.underVoltage.ratio >= UNDER_VOLTAGE_THRESHOLD ? 'yes' : 'no',
    appId: collected.appId ?? '',
    driverId: collected.driverId ?? '',
    orderId: collected.orderId ?? '',
    subscriptionId: collected.subscriptionId ?? '',
    subscriptions: user.subscriptions.map((s) => s.id).join(', '),
    supportFormPath: collected.path.join(' → '),
    uploadTokens: ctx.uploadTokens,
  };
}
