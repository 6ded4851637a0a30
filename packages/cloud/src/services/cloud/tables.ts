import type { ColumnType } from 'kysely';

/** A jsonb column: read as `T`, written as its JSON text (pg would turn a JS array into a SQL array). */
export type Json<T> = ColumnType<T, string, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A text column with a database default of `''`. */
type AddressText = ColumnType<string, string | undefined, string>;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  firstname: string;
  lastname: string;
  language: string;
  role_ids: Json<string[]>;
  avatar_type: string | null;
  /** When the person opened the link mailed to their address; `null` while unverified (accountPagesMigration). */
  email_verified_at: Timestamp | null;
  /** The TOTP secret (base32) of two-factor sign-in once it is on. */
  totp_secret: string | null;
  /** A secret being set up: it replaces `totp_secret` when a code from the app confirms it. */
  totp_pending_secret: string | null;
  totp_enabled_at: Timestamp | null;
  /** The last TOTP time step accepted: a code is used once. */
  totp_last_step: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** Changed by triggers with anything `GET /user/me` shows (cloudUserRevisionsMigration). */
  revision: ColumnType<number, never, never>;
}

export interface OAuthClientsTable {
  id: string;
  /** argon2 hash of the secret; `null` for public (browser) clients, which authenticate with PKCE. */
  secret_hash: string | null;
  name: string;
  grants: Json<string[]>;
  redirect_uris: Json<string[]>;
  /** Scopes the client may be granted; `null` means any. */
  scopes: Json<string[] | null>;
  /** Internal clients (the platform's own services) may call private operations. */
  internal: boolean;
  owner_user_id: string | null;
  created_at: CreatedAt;
}

export interface OAuthTokensTable {
  id: string;
  /** Every token issued from one sign-in shares a family; reuse of a rotated refresh token revokes it. */
  family_id: string;
  client_id: string;
  user_id: string | null;
  scopes: Json<string[] | null>;
  access_hash: string;
  access_expires_at: Timestamp;
  refresh_hash: string | null;
  refresh_expires_at: Timestamp | null;
  /** Set when the refresh token was exchanged for a new pair. */
  rotated_at: Timestamp | null;
  revoked_at: Timestamp | null;
  user_agent: string | null;
  ip: string | null;
  /** The one hub a token from a hub-bound code (the web app's) is for; `null` for a token of the whole account. */
  audience_hub_id: string | null;
  created_at: CreatedAt;
}

export interface OAuthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  scopes: Json<string[] | null>;
  redirect_uri: string;
  code_challenge: string | null;
  code_challenge_method: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** The token family (sign-in) the code's exchange starts; a replay of the code revokes it. */
  token_family_id: string;
  /** When the code was presented again after its exchange. */
  replayed_at: Timestamp | null;
  /** The hub whose address the code was sent to: its tokens speak for that hub only (see `hub-redirects.ts`). */
  audience_hub_id: string | null;
  created_at: CreatedAt;
}

/**
 * One-time tokens: password reset links, store login tokens, e-mail verification links (`data.email`: the address
 * the link verifies) and the second step of a sign-in with two-factor codes (`two_factor`).
 */
export interface OneTimeTokensTable {
  token_hash: string;
  kind: 'password_reset' | 'login' | 'email_verify' | 'two_factor' | 'browser_session';
  user_id: string;
  data: ColumnType<Record<string, unknown> | null, string | undefined, string>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface HubsTable {
  id: string;
  name: string;
  owner_user_id: string | null;
  /** Hash of the claim token the hub shows its owner; needed to claim an unowned hub. */
  claim_token_hash: string | null;
  /** Hash of the short claim code the hub shows while unowned, and when it stops working. */
  claim_code_hash: string | null;
  claim_code_expires_at: Timestamp | null;
  model: string;
  platform: 'local' | 'cloud';
  /** The cloud region the hub registered in. */
  region: string | null;
  software_version: string;
  language: string;
  api_version: number;
  serial: string | null;
  local_url: string | null;
  local_url_secure: string | null;
  remote_url: string | null;
  remote_url_forwarded: string | null;
  mdns_fqdn: string | null;
  port_http: number | null;
  ip_internal: string | null;
  ip_external: string | null;
  state: string;
  geolocation: Json<Record<string, unknown> | null>;
  licenses: Json<string[]>;
  notifications: Json<{ push: boolean; email: boolean }>;
  activated_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface HubUsersTable {
  hub_id: string;
  user_id: string;
  role: string;
  created_at: CreatedAt;
}

export interface HubMetadataTable {
  hub_id: string;
  key: string;
  value: Json<Record<string, unknown>>;
  updated_at: Timestamp;
}

export interface BridgesTable {
  serial: string;
  id: string;
  model: string;
  build: number;
  zwave_calibration: Json<unknown[]>;
  manufactured_at: Timestamp | null;
  activation_history: Json<Array<{ homeyId: string | null; userId: string | null; activatedAt: string }>>;
  hub_id: string | null;
  owner_user_id: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface UserDevicesTable {
  id: string;
  user_id: string;
  name: string;
  platform: string;
  token: string | null;
  public_key: string | null;
  app_version: string | null;
  os_version: string | null;
  devmode: boolean;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface UserAddressesTable {
  id: string;
  user_id: string;
  street: AddressText;
  number: AddressText;
  zipcode: AddressText;
  city: AddressText;
  state: AddressText;
  country: AddressText;
  extra: AddressText;
  firstname: AddressText;
  lastname: AddressText;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SubscriptionsTable {
  id: string;
  user_id: string;
  type: string;
  hub_id: string | null;
  status: string;
  quantity: number;
  started_at: Timestamp;
  expires_at: Timestamp | null;
  data: Json<Record<string, unknown>>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface AcceptedInvitesTable {
  user_id: string;
  inviter_id: string;
  accepted_at: Timestamp;
}

export interface AvatarsTable {
  user_id: string;
  content_type: string;
  /** The image as uploaded. */
  data: Buffer;
  /** Squares of `AVATAR_SIZES` pixels a side, in the uploaded format. */
  medium: Buffer;
  large: Buffer;
  updated_at: Timestamp;
}

export interface DelegationKeysTable {
  id: string;
  private_pem: string;
  public_pem: string;
  created_at: CreatedAt;
}

export interface MailingListMembersTable {
  list_id: string;
  user_id: string;
  tags: Json<string[]>;
  updated_at: Timestamp;
}

/** Two-factor recovery codes, each kept as its SHA-256 (they carry 80 random bits) and used once. */
export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

/** Invitations to join a hub's household, mailed to an address; the link works once. */
export interface HubInvitesTable {
  id: string;
  hub_id: string;
  inviter_id: string;
  email: string;
  role: 'manager' | 'user' | 'guest';
  token_hash: string;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  accepted_by: string | null;
  created_at: CreatedAt;
}

export interface CloudAccountTables {
  users: UsersTable;
  oauth_clients: OAuthClientsTable;
  oauth_tokens: OAuthTokensTable;
  oauth_codes: OAuthCodesTable;
  one_time_tokens: OneTimeTokensTable;
  hubs: HubsTable;
  hub_users: HubUsersTable;
  hub_metadata: HubMetadataTable;
  bridges: BridgesTable;
  user_devices: UserDevicesTable;
  user_addresses: UserAddressesTable;
  subscriptions: SubscriptionsTable;
  accepted_invites: AcceptedInvitesTable;
  avatars: AvatarsTable;
  delegation_keys: DelegationKeysTable;
  mailing_list_members: MailingListMembersTable;
  recovery_codes: RecoveryCodesTable;
  hub_invites: HubInvitesTable;
}
