import type { Implementation } from '@hearth/contract/fastify';
import type { FastifyInstance } from 'fastify';
import type { CloudContext, CloudPrincipal } from '../platform/context';
import type { AppCatalogue } from './apps/service';
import type { RelayNetwork } from './connect/network';
import type { IpLocator } from './geolocate/lookup';

/**
 * What one service offers the others, built once per cloud by the composition root (`server.ts`) and handed to
 * every service's `create`: a service asks for what it uses here instead of reaching into another's folder state.
 */
export interface CloudServices {
  /** The relay and the tunnels hubs keep: served by the connect service, used to call hubs (webhook deliveries). */
  readonly connect: RelayNetwork;
  /** The app catalogue (apps, builds, reviews). */
  readonly catalogue: AppCatalogue;
  /** Where an address is, for a hub's time zone and region. */
  readonly locator: IpLocator;
}

/** One running service of one cloud: its operations, extra routes and lifecycle. */
export interface CloudServiceInstance {
  implementations(): Implementation<CloudPrincipal>[];
  /** Pages or files outside the contract (sign-in page, support form). */
  routes?(app: FastifyInstance): Promise<void> | void;
  /** Called after the database is migrated and every route is registered, before the cloud listens. */
  start?(): Promise<void> | void;
  /** Called in reverse order of start when the cloud stops: timers, sockets and listeners go here. */
  stop?(): Promise<void> | void;
}

/**
 * One cloud service (one folder under `services/`). `create` is called once per cloud with that cloud's context
 * (its log names the service) and the shared services; everything the service keeps lives in the instance, so one
 * process may run several clouds (tests) and a node keeps nothing another node needs.
 */
export interface CloudService {
  readonly name: string;
  create(context: CloudContext, services: CloudServices): CloudServiceInstance;
}
