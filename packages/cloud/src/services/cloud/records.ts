import { hubModelName } from '@hearth/contract';
import type { AddressesRow, BridgesRow, DevicesRow, HubsRow, SubscriptionsRow, UsersRow } from './rows';

/** Drops `null` and `undefined` fields, so optional wire fields are absent rather than null. */
export function compact<T extends Record<string, unknown>>(record: T): { [K in keyof T]: Exclude<T[K], null> } {
  for (const key of Object.keys(record)) if (record[key] === null || record[key] === undefined) delete record[key];
  return record as { [K in keyof T]: Exclude<T[K], null> };
}

const iso = (date: Date | null | undefined): string | undefined => (date ? date.toISOString() : undefined);

export interface HubMember {
  user_id: string;
  role: string;
}

/** A hub record as clients read it (wire-protocol.md): `_id` first, `apiVersion` the number 3. */
export function hubRecord(hub: HubsRow, members: HubMember[], viewerId: string | null) {
  const users = [
    ...(hub.owner_user_id ? [{ _id: hub.owner_user_id, role: 'owner' }] : []),
    ...members.filter((m) => m.user_id !== hub.owner_user_id).map((m) => ({ _id: m.user_id, role: m.role })),
  ];
  const role = viewerId === null ? 'none' : (users.find((u) => u._id === viewerId)?.role ?? 'none');
  return compact({
    _id: hub.id,
    id: hub.id,
    name: hub.name,
    apiVersion: hub.api_version,
    platform: hub.platform,
    softwareVersion: hub.software_version,
    language: hub.language,
    role,
    model: hub.model,
    modelName: hubModelName(hub.model),
    region: hub.region,
    localUrl: hub.local_url,
    localUrlSecure: hub.local_url_secure,
    remoteUrl: hub.remote_url,
    remoteUrlForwarded: hub.remote_url_forwarded,
    mdnsFqdn: hub.mdns_fqdn,
    portHttp: hub.port_http,
    ipInternal: hub.ip_internal,
    ipExternal: hub.ip_external,
    state: hub.state,
    geolocation: hub.geolocation,
    users,
    licenses: hub.licenses,
    notifications: hub.notifications,
    serial: hub.serial,
    activatedAt: iso(hub.activated_at),
  });
}

export function deviceRecord(device: DevicesRow) {
  return compact({
    _id: device.id,
    id: device.id,
    name: device.name,
    platform: device.platform,
    token: device.token,
    publicKey: device.public_key,
    appVersion: device.app_version,
    osVersion: device.os_version,
    devmode: device.devmode,
    created: device.created_at.toISOString(),
    updated: device.updated_at.toISOString(),
  });
}

export function addressRecord(address: AddressesRow) {
  return {
    _id: address.id,
    id: address.id,
    street: address.street,
    number: address.number,
    zipcode: address.zipcode,
    city: address.city,
    state: address.state,
    country: address.country,
    extra: address.extra,
    firstname: address.firstname,
    lastname: address.lastname,
  };
}

export function subscriptionRecord(subscription: SubscriptionsRow) {
  return compact({
    _id: subscription.id,
    id: subscription.id,
    type: subscription.type,
    status: subscription.status,
    quantity: subscription.quantity,
    homeyId: subscription.hub_id,
    startedAt: subscription.started_at.toISOString(),
    expiresAt: iso(subscription.expires_at),
  });
}

export function avatarRecord(publicUrl: string, user: Pick<UsersRow, 'id' | 'avatar_type' | 'updated_at'>) {
  if (!user.avatar_type) return undefined;
  const base = `${publicUrl}/cloud/user/${user.id}/avatar`;
  const version = user.updated_at.getTime();
  return { medium: `${base}/medium?v=${version}`, large: `${base}/large?v=${version}` };
}

export const ROLE_NAMES: Record<string, string> = {
  app_developer_trusted: 'Trusted app developer',
  installer: 'Certified installer',
};

export function userRecord(
  publicUrl: string,
  user: UsersRow,
  parts: {
    hubs: ReturnType<typeof hubRecord>[];
    devices: DevicesRow[];
    subscriptions: SubscriptionsRow[];
  },
) {
  return compact({
    _id: user.id,
    id: user.id,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    fullname: `${user.firstname} ${user.lastname}`.trim(),
    language: user.language,
    roleIds: user.role_ids,
    roles: user.role_ids.map((id) => ({ _id: id, name: ROLE_NAMES[id] ?? id })),
    avatar: avatarRecord(publicUrl, user),
    homeys: parts.hubs,
    devices: parts.devices.map(deviceRecord),
    subscriptions: Object.fromEntries(parts.subscriptions.map((s) => [s.id, subscriptionRecord(s)])),
    createdAt: user.created_at.toISOString(),
    emailVerified: user.email_verified_at !== null,
    twoFactorEnabled: user.totp_secret !== null,
  });
}

export function bridgeRecord(bridge: BridgesRow) {
  return compact({
    _id: bridge.id,
    id: bridge.id,
    serial: bridge.serial,
    model: bridge.model,
    build: bridge.build,
    zwaveCalibration: bridge.zwave_calibration,
    manufacturedAt: iso(bridge.manufactured_at),
    activationHistory: bridge.activation_history,
    homeyId: bridge.hub_id,
    userId: bridge.owner_user_id,
  });
}
