import type { Migration } from 'kysely';
import { clusterMigration, sweepLeaseMigration } from '../platform/cluster/tables';
import {
  appsCatalogueMigration,
  appsFactsIndexMigration,
  appsPlatformVersionsMigration,
  appsSearchAndSummariesMigration,
  appsSearchDictionaryMigration,
  appsSearchDocumentsMigration,
} from '../services/apps/tables';
import { backupsMigration } from '../services/backup/tables';
import { callbackMigration } from '../services/callback/migration';
import { certificateAuthorityMigration } from '../services/certificate/tables';
import { accountPagesMigration } from '../services/cloud/account/migration';
import { hubClaimCodeMigration } from '../services/cloud/household/claim-codes';
import { cloudHubRegionMigration } from '../services/cloud/hub-region';
import { cloudAccountsMigration, cloudAvatarSizesMigration, cloudUserRevisionsMigration } from '../services/cloud/migration';
import { cloudOAuthAudienceMigration, cloudOAuthCodeFamilyMigration } from '../services/cloud/oauth-codes';
import { passkeysMigration } from '../services/cloud/passkeys/tables';
import { flowShareMigration } from '../services/flowshare/tables';
import { helpdeskMigration } from '../services/helpdesk/tables';
import { iconsMigration } from '../services/icons/tables';
import { infraredDatasetMigration, infraredMigration } from '../services/infrared/tables';
import { pushKeysMigration } from '../services/notifications/tables';
import { setupSessionsMigration } from '../services/setup/tables';
import {
  storeGuestCartsMigration,
  storeOffersMigration,
  storeOrdersMigration,
  storeReceiptsMigration,
  storeReferralCreditsMigration,
  storeShopMigration,
  storeSubscriptionGrantsMigration,
  storeUserdataMigration,
  storeUserMigration,
} from '../services/store/migration';
import { weatherCacheMigration } from '../services/weather/tables';
import { webhooksMigration } from '../services/webhooks/tables';

/**
 * Every migration of the cloud, keyed by a name that sorts in application order
 * (`<yyyymmdd>-<nn>-<service>-<what>`). Migrations are code and never change once landed.
 */
export const migrations: Record<string, Migration> = {
  '20261121-01-cloud-accounts': cloudAccountsMigration,
  '20261121-02-store-user': storeUserMigration,
  '20261122-60-callback-urls': callbackMigration,
  '20261122-01-helpdesk-tickets': helpdeskMigration,
  '20261122-50-apps-catalogue': appsCatalogueMigration,
  '20261122-70-apps-search-and-summaries': appsSearchAndSummariesMigration,
  '20261122-85-icons': iconsMigration,
  '20261122-80-cloud-avatar-sizes': cloudAvatarSizesMigration,
  '20261122-90-apps-search-dictionary': appsSearchDictionaryMigration,
  '20261122-95-cloud-user-revisions': cloudUserRevisionsMigration,
  '20261122-96-cloud-hub-region': cloudHubRegionMigration,
  '20261122-98-apps-search-documents': appsSearchDocumentsMigration,
  '20261122-99-apps-platform-versions': appsPlatformVersionsMigration,
  '20261123-10-apps-facts-index': appsFactsIndexMigration,
  '20261124-10-cloud-oauth-code-family': cloudOAuthCodeFamilyMigration,
  '20261125-20-cloud-account-pages': accountPagesMigration,
  '20261125-30-weather-cache': weatherCacheMigration,
  '20261125-31-shared-flows': flowShareMigration,
  '20261125-40-backups': backupsMigration,
  '20261125-50-webhooks': webhooksMigration,
  '20261125-60-setup-sessions': setupSessionsMigration,
  '20261125-70-push-keys': pushKeysMigration,
  '20261125-80-certificate-authority': certificateAuthorityMigration,
  '20261125-90-cluster': clusterMigration,
  '20261125-95-infrared': infraredMigration,
  '20261125-96-cloud-passkeys': passkeysMigration,
  '20261125-97-store-shop': storeShopMigration,
  '20261125-98-store-userdata': storeUserdataMigration,
  '20261128-10-store-orders': storeOrdersMigration,
  '20261128-20-store-receipts': storeReceiptsMigration,
  '20261128-30-store-offers': storeOffersMigration,
  '20261128-40-store-guest-carts': storeGuestCartsMigration,
  '20261129-10-store-subscription-grants': storeSubscriptionGrantsMigration,
  '20261129-20-cluster-sweep-lease': sweepLeaseMigration,
  '20261129-30-store-referral-credits': storeReferralCreditsMigration,
  '20261129-60-infrared-dataset': infraredDatasetMigration,
  '20261129-70-cloud-oauth-audience': cloudOAuthAudienceMigration,
  '20261129-80-cloud-hub-claim-code': hubClaimCodeMigration,
};
