import { cloudOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudPrincipal } from '../../platform/context';
import { hubOfSecretOrRefuse } from '../../platform/hub-secret';
import type { CloudService } from '../service';
import { infraredStore } from './store';

const infraredOps = cloudOperations.infrared;

/**
 * The infrared database (`/infrared`): brands, types and devices, searchable by name, and each device's codes in
 * Pronto hex for a hub to send. The data file (`dataset.ts`) is loaded into the database when first asked for.
 */
export const infraredService: CloudService = {
  name: 'infrared',
  create: (context) => {
    const store = infraredStore(context);
    // The data set goes into the database the first time anyone asks for it, not at start: a cloud that is never
    // asked (most test clouds) does not pay the seconds it takes. Nodes loading it together each add what is missing.
    let loading: Promise<void> | null = null;
    const loaded = () => {
      loading ??= store.load().catch((error: unknown) => {
        loading = null;
        context.log.error({ err: error }, 'infrared: loading the data set failed');
        throw error;
      });
      return loading;
    };
    return {
      implementations: () =>
        implement<typeof infraredOps, CloudPrincipal>(infraredOps, {
          getBrands: async ({ query }) => {
            await loaded();
            return store.brands(query.type);
          },
          getTypes: async ({ query }) => {
            await loaded();
            return store.types(query.brand);
          },
          searchDevices: async ({ query }) => {
            await loaded();
            return store.search(query.query);
          },
          getDevices: async ({ query }) => {
            await loaded();
            return store.list(query);
          },
          getDevice: async ({ params, query }) => {
            hubOfSecretOrRefuse(context, query.secret);
            await loaded();
            const device = await store.device(params.deviceId);
            if (!device) throw notFound('Infrared device', params.deviceId);
            return device;
          },
        }),
    };
  },
};
