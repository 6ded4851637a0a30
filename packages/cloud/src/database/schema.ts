import type { ClusterTables } from '../platform/cluster/tables';
import type { AppsTables } from '../services/apps/tables';
import type { BackupTables } from '../services/backup/tables';
import type { CallbackTables } from '../services/callback/tables';
import type { CertificateTables } from '../services/certificate/tables';
import type { PasskeyTables } from '../services/cloud/passkeys/tables';
import type { CloudAccountTables } from '../services/cloud/tables';
import type { FlowShareTables } from '../services/flowshare/tables';
import type { HelpdeskTables } from '../services/helpdesk/tables';
import type { IconsTables } from '../services/icons/tables';
import type { InfraredTables } from '../services/infrared/tables';
import type { NotificationsTables } from '../services/notifications/tables';
import type { SetupTables } from '../services/setup/tables';
import type { StoreTables } from '../services/store/tables';
import type { WeatherTables } from '../services/weather/tables';
import type { WebhookTables } from '../services/webhooks/tables';

/**
 * The cloud's tables, as Kysely sees them. Each service declares its own table interfaces in its folder and
 * they are merged here, so queries are typed end to end.
 */
export type CloudSchema = CloudAccountTables &
  StoreTables &
  HelpdeskTables &
  AppsTables &
  CallbackTables &
  IconsTables &
  WeatherTables &
  FlowShareTables &
  InfraredTables &
  BackupTables &
  WebhookTables &
  SetupTables &
  NotificationsTables &
  CertificateTables &
  ClusterTables &
  PasskeyTables;
