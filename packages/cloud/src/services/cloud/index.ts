import type { CloudService } from '../../platform/context';
import { healthImplementations } from './health';

/** Accounts, OAuth2, hubs, bridges, delegation, mail and statistics, under `/cloud`. */
export const cloudAccountService: CloudService = {
  name: 'cloud',
  implementations: (context) => [...healthImplementations(context)],
};
