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
