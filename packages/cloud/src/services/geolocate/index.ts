import { isIP } from 'node:net';
import { cloudOperations, invalidParameter } from '@hearth/contract';
import { addressKey, implement } from '@hearth/contract/fastify';
import type { CloudPrincipal } from '../../platform/context';
import type { CloudService } from '../service';
import { plainAddress } from './lookup';

const geolocateOps = cloudOperations.geolocate;
/** Hubs ask when they start and when their address changes; this leaves room for a household's several. */
const PER_ADDRESS = { name: 'geolocate', quota: 60, windowSeconds: 3600 };

/** The geolocate service (`/geolocate`): the place of an IP address, from the IP-to-city database the cloud holds. */
export const geolocateService: CloudService = {
  name: 'geolocate',
  create: (context, { locator }) => ({
    implementations: () => {
      return implement<typeof geolocateOps, CloudPrincipal>(geolocateOps, {
        getLocation: async ({ body, request }) => {
          await context.rateLimiter.count(request, PER_ADDRESS, addressKey(request.ip));
          const ip = plainAddress(body.homeyIP ?? request.ip);
          if (isIP(ip) === 0) throw invalidParameter('homeyIP', 'Must be an IPv4 or IPv6 address');
          return locator.locate(ip);
        },
      });
    },
  }),
};
