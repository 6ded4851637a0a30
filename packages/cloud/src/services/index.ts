import type { CloudContext } from '../platform/context';
import { appsService } from './apps';
import { AppCatalogue } from './apps/service';
import { backupService } from './backup';
import { callbackService } from './callback';
import { certificateService } from './certificate';
import { cloudAccountService } from './cloud';
import { connectService, createRelayNetwork } from './connect';
import { flowShareService } from './flowshare';
import { geolocateService } from './geolocate';
import { IpLocator } from './geolocate/lookup';
import { helpdeskService } from './helpdesk';
import { iconsService } from './icons';
import { infraredService } from './infrared';
import { mailService } from './mail';
import { notificationsService } from './notifications';
import { regionService } from './region';
import type { CloudService, CloudServices } from './service';
import { setupService } from './setup';
import { storeService } from './store';
import { updateService } from './update';
import { weatherService } from './weather';
import { webhooksService } from './webhooks';

/** Every service the cloud serves. Adding a service means adding it here. */
export const services: readonly CloudService[] = [
  cloudAccountService,
  mailService,
  storeService,
  helpdeskService,
  appsService,
  callbackService,
  iconsService,
  regionService,
  weatherService,
  geolocateService,
  updateService,
  flowShareService,
  backupService,
  connectService,
  webhooksService,
  setupService,
  notificationsService,
  certificateService,
  infraredService,
];

/**
 * What services share, built once per cloud: each is made by the folder that owns it and handed to the others
 * through `create`, so no service reaches into another's state.
 */
export function createCloudServices(context: CloudContext): CloudServices {
  return {
    connect: createRelayNetwork({ ...context, log: context.log.child({ service: 'connect' }) }),
    catalogue: new AppCatalogue({ ...context, log: context.log.child({ service: 'apps' }) }),
    locator: new IpLocator(),
  };
}
