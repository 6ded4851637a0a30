import type { Selectable } from 'kysely';
import type { BridgesTable, HubsTable, SubscriptionsTable, UserAddressesTable, UserDevicesTable, UsersTable } from './tables';

export type UsersRow = Selectable<UsersTable>;
export type HubsRow = Selectable<HubsTable>;
export type DevicesRow = Selectable<UserDevicesTable>;
export type AddressesRow = Selectable<UserAddressesTable>;
export type SubscriptionsRow = Selectable<SubscriptionsTable>;
export type BridgesRow = Selectable<BridgesTable>;
