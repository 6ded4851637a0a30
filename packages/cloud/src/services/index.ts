import type { CloudService } from '../platform/context';
import { appsService } from './apps';
import { backupService } from './backup';
import { callbackService } from './callback';
import { certificateService } from './certificate';
import { cloudAccountService } from './cloud';
import { connectService } from './connect';
import { flowShareService } from './flowshare';
import { geolocateService } from './geolocate';
import { helpdeskService } from './helpdesk';
import { iconsService } from './icons';
import { infraredService } from './infrared';
import { mailService } from './mail';
import { notificationsService } from './notifications';
import { regionService } from './region';
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
