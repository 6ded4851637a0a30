import { cloudOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { hubOfSecretOrRefuse } from '../../platform/hub-secret';
import type { CloudService } from '../service';
import { infraredStore } from './store';

const infraredOps = cloudOperations.infrared;

/**
 * The infrared database (`/infrared`): brands, types and devices, searchable by name, and each device's codes in
 * Pronto hex for a hub to send. The data file (`dataset.ts`) is loaded at start.
 */
export const infraredService: CloudService = {
  name: 'infrared',
  create: (context) => ({
    implementations: () => {
      const store = infraredStore(context);
      return implement<typeof infraredOps, CloudPrincipal>(infraredOps, {
        getBrands: ({ query }) => store.brands(query.type),
        getTypes: ({ query }) => store.types(query.brand),
        searchDevices: ({ query }) => store.search(query.query),
        getDevices: ({ query }) => store.list(query),
        getDevice: async ({ params, query }) => {
          hubOfSecretOrRefuse(context, query.secret);
          const device = await store.device(params.deviceId);
          if (!device) throw notFound('Infrared device', params.deviceId);
          return device;
        },
      });
    },
    start: async () => {
      await infraredStore(context).load();
    },
  }),
};
