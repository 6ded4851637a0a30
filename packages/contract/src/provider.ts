/**
 * The provider's own app-author accounts (the Hearth apps team). Apps they publish are supported by Hearth
 * itself: the support form sends their users to Hearth support rather than to a developer. The cloud's demo
 * world creates these accounts with these ids.
 */
export const TRUSTED_APP_AUTHOR_IDS: readonly string[] = [
  '5ea7c0de0000000000a07401',
  '5ea7c0de0000000000a07402',
  '5ea7c0de0000000000a07403',
  '5ea7c0de0000000000a07404',
  '5ea7c0de0000000000a07405',
];
