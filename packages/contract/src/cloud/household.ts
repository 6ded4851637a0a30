import { Type } from 'typebox';
import { cloudService } from '../operation';
import { Avatar, CloudHub } from './cloud-records';
import { DateTime } from './schemas';

/**
 * Hubs and the people who share them, as the account pages manage them: claiming a hub with the one-time code it
 * prints, handing it to another member, and inviting people by e-mail (accepted with the seed's
 * `POST /user/{userId}/accept_invite/{inviterId}`). Part of the `cloud` service (under `/cloud`).
 */
const op = cloudService('cloud', '/cloud');

const Id = Type.String({ minLength: 1, maxLength: 200 });
/** The roles a hub's household members have; the owner is not one of them. */
export const HouseholdRole = Type.Union([Type.Literal('manager'), Type.Literal('user'), Type.Literal('guest')]);

export const HubMember = Type.Object({
  _id: Type.String(),
  role: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  fullname: Type.String(),
  /** Shown to the hub's owner and managers only. */
  email: Type.Optional(Type.String()),
  avatar: Type.Optional(Avatar),
});

export const HubInvite = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  homeyId: Type.String(),
  email: Type.String(),
  role: HouseholdRole,
  inviterId: Type.String(),
  createdAt: DateTime,
  expiresAt: DateTime,
});

export const InvitePreview = Type.Object({
  inviterId: Type.String(),
  inviterName: Type.String(),
  homeyId: Type.String(),
  homeyName: Type.String(),
  role: HouseholdRole,
  email: Type.String(),
  expiresAt: DateTime,
});

const HubParams = Type.Object({ homeyId: Id });

export const householdOperations = {
  claimHomey: op({
    name: 'claimHomey',
    method: 'POST',
    path: '/homey/claim',
    scope: null,
    body: Type.Object({ code: Type.String({ minLength: 8, maxLength: 200 }) }, { additionalProperties: false }),
    response: CloudHub,
    errors: ['forbidden', 'claim_code_invalid', 'claim_code_expired', 'rate_limited'],
    summary: 'Claims the unowned hub that shows this code; the caller becomes its owner.',
    description:
      'The code is the short one the hub shows on its web page and prints in its log (`ABCD-EFGH`; case, spaces and dashes do not matter), or the hub’s full claim token. The account’s e-mail address must be verified. A wrong, used or unknown code answers `claim_code_invalid` the same way, so the call tells nobody which hubs exist; a right code past its time answers `claim_code_expired`. Failed attempts are throttled per account and per network (`rate_limited` with `Retry-After`); a success forgives the account’s failures, and one person’s guessing never holds another account back.',
  }),
  createHomeyClaimCode: op({
    name: 'createHomeyClaimCode',
    method: 'POST',
    path: '/homey/:id/claim_code',
    scope: null,
    private: true,
    params: Type.Object({ id: Id }),
    response: Type.Object({ code: Type.String(), expiresAt: DateTime }),
    errors: ['not_found', 'conflict'],
    summary: 'Gives an unowned hub a new short claim code to show, replacing the one before.',
    description:
      'The hub asks for one while nobody owns it, and again before the code expires. `conflict` when the hub has an owner.',
  }),
  transferHomey: op({
    name: 'transferHomey',
    method: 'POST',
    path: '/homey/:id/transfer',
    scope: null,
    params: Type.Object({ id: Id }),
    body: Type.Object({ userId: Id }, { additionalProperties: false }),
    response: CloudHub,
    summary: 'Hands the hub to one of its members; the owner stays on as a manager.',
    description: 'Only the owner may. The new owner must already be a member of the hub’s household.',
  }),
  getHomeyUsers: op({
    name: 'getHomeyUsers',
    method: 'GET',
    path: '/homey/:homeyId/user',
    scope: null,
    params: HubParams,
    response: Type.Array(HubMember),
    summary: 'The hub’s owner and household members with their names and roles.',
    description: 'Its owner and members may read it; e-mail addresses only the owner and managers see.',
  }),
  createHomeyInvite: op({
    name: 'createHomeyInvite',
    method: 'POST',
    path: '/homey/:homeyId/invite',
    scope: null,
    params: HubParams,
    body: Type.Object(
      { email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }), role: HouseholdRole },
      { additionalProperties: false },
    ),
    response: HubInvite,
    successStatus: 201,
    errors: ['forbidden', 'conflict', 'rate_limited'],
    summary: 'Mails an invitation to join the hub’s household with a role; its link works once, for a week.',
    description: 'The owner may invite with any role, a manager as user or guest.',
  }),
  getHomeyInvites: op({
    name: 'getHomeyInvites',
    method: 'GET',
    path: '/homey/:homeyId/invite',
    scope: null,
    params: HubParams,
    response: Type.Array(HubInvite),
    summary: 'The hub’s invitations nobody has accepted yet.',
    description: 'For the hub’s owner and managers.',
  }),
  deleteHomeyInvite: op({
    name: 'deleteHomeyInvite',
    method: 'DELETE',
    path: '/homey/:homeyId/invite/:inviteId',
    scope: null,
    params: Type.Object({ homeyId: Id, inviteId: Id }),
    summary: 'Withdraws an invitation: its link stops working.',
    description: 'For the hub’s owner and managers.',
  }),
  previewInvite: op({
    name: 'previewInvite',
    method: 'POST',
    path: '/user/me/invite',
    scope: null,
    auth: false,
    body: Type.Object({ token: Type.String({ minLength: 16, maxLength: 200 }) }, { additionalProperties: false }),
    response: InvitePreview,
    errors: ['gone'],
    summary: 'What an invitation link offers (hub, inviter, role), before it is accepted.',
    description:
      'Needs no sign-in: the link’s one-time token is the proof, so a person without an account yet sees who invites them to what. The token travels in the body, not the address, so it stays out of logs. A used, withdrawn or expired link answers 410.',
  }),
} as const;
