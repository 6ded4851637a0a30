import { Type } from 'typebox';
import { DateTime, OptionalString, open } from './cloud-helpers';

// The hubs and accounts the `cloud` service answers with.

/** A hub as the cloud records it. `_id` comes first; `id` repeats it for clients that read `id`. */
export const CloudHub = open({
  _id: Type.String(),
  id: Type.String(),
  name: Type.String(),
  apiVersion: Type.Number(),
  platform: Type.Union([Type.Literal('local'), Type.Literal('cloud')]),
  softwareVersion: Type.String(),
  language: Type.String(),
  role: Type.String(),
  model: Type.String(),
  /** The name people know the model by (e.g. "Hearth Pro mini"). */
  modelName: Type.String(),
  /** The cloud region the hub registered in. */
  region: OptionalString,
  localUrl: OptionalString,
  localUrlSecure: OptionalString,
  remoteUrl: OptionalString,
  remoteUrlForwarded: OptionalString,
  mdnsFqdn: OptionalString,
  portHttp: Type.Optional(Type.Number()),
  ipInternal: OptionalString,
  ipExternal: OptionalString,
  state: Type.String(),
  geolocation: Type.Optional(open({})),
  users: Type.Array(open({ _id: Type.String(), role: Type.String() })),
  licenses: Type.Array(Type.String()),
  notifications: Type.Object({ push: Type.Boolean(), email: Type.Boolean() }),
  serial: OptionalString,
  activatedAt: Type.Optional(DateTime),
});

export const UserDevice = open({
  _id: Type.String(),
  id: Type.String(),
  name: Type.String(),
  platform: Type.String(),
  token: OptionalString,
  publicKey: OptionalString,
  appVersion: OptionalString,
  osVersion: OptionalString,
  devmode: Type.Boolean(),
  created: DateTime,
  updated: DateTime,
});

export const UserAddress = open({
  _id: Type.String(),
  id: Type.String(),
  street: Type.String(),
  number: Type.String(),
  zipcode: Type.String(),
  city: Type.String(),
  state: Type.String(),
  country: Type.String(),
  extra: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
});

export const UserSubscription = open({
  _id: Type.String(),
  id: Type.String(),
  type: Type.String(),
  status: Type.String(),
  quantity: Type.Number(),
  homeyId: OptionalString,
  startedAt: DateTime,
  expiresAt: Type.Optional(DateTime),
});

export const Avatar = Type.Object({ medium: Type.String(), large: Type.String() });

/** The cloud user. `homeys` and `devices` are always arrays; `subscriptions` is keyed by subscription id. */
export const CloudUser = open({
  _id: Type.String(),
  id: Type.String(),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  fullname: Type.String(),
  language: Type.String(),
  roleIds: Type.Array(Type.String()),
  roles: Type.Array(open({ _id: Type.String(), name: Type.String() })),
  avatar: Type.Optional(Avatar),
  homeys: Type.Array(CloudHub),
  devices: Type.Array(UserDevice),
  subscriptions: Type.Record(Type.String(), UserSubscription),
  createdAt: DateTime,
  /** Whether the person opened the link mailed to their address. Unverified accounts cannot claim hubs. */
  emailVerified: Type.Boolean(),
  /** Whether signing in asks for a code from an authenticator app. */
  twoFactorEnabled: Type.Boolean(),
});

export const UserProfile = open({
  _id: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  avatar: Type.Optional(Avatar),
});

export const CloudSession = open({
  _id: Type.String(),
  id: Type.String(),
  clientId: Type.String(),
  clientName: Type.String(),
  scopes: Type.Array(Type.String()),
  createdAt: DateTime,
  lastUsedAt: DateTime,
  userAgent: OptionalString,
  ip: OptionalString,
  current: Type.Boolean(),
});
