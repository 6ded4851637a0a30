import { ACCOUNT_PAGES } from '@hearth/contract/provider';

/** Where the invitation page keeps its link's token (session storage) until it is accepted or refused. */
export const INVITE_TOKEN_KEY = 'hearth-account:invite';

/**
 * Where signing in should lead: back to an invitation this tab opened and has not answered yet (someone who had
 * no account signs up on the way, and must land on the invitation, not their profile), else the account.
 */
export const afterSignIn = (): string => (sessionStorage.getItem(INVITE_TOKEN_KEY) ? ACCOUNT_PAGES.invite : '/');
