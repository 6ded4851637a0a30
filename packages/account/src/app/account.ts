import type { CloudAPI } from '@hearth/client/browser';
import type { cloudOperations, OperationResult } from '@hearth/contract';
import { createContext, useContext } from 'react';

export type User = OperationResult<typeof cloudOperations.cloud.getAuthenticatedUser>;
export type Hub = User['homeys'][number];

/** The signed-in person and the ways to act on the sign-in; `user` is `null` when signed out. */
export interface Account {
  cloud: CloudAPI;
  user: User | null;
  /** Reads the user again (after a change the pages made). */
  reloadUser(): Promise<void>;
  /** Sends the browser to the sign-in page, coming back to `returnTo` (the current page by default). */
  signIn(returnTo?: string): void;
  /** Ends this sign-in (or every one, and then the passkeys too when asked) in the cloud and here. */
  signOut(everywhere?: boolean, removePasskeys?: boolean): Promise<void>;
  /** Forgets the sign-in here only, after the account is gone, and says so until the person moves on. */
  forget(farewell: { title: string; message: string }): Promise<void>;
}

export const AccountContext = createContext<Account | null>(null);

export function useAccount(): Account {
  const account = useContext(AccountContext);
  if (!account) throw new Error('useAccount needs an AccountContext provider');
  return account;
}

/** The signed-in user; only for pages shown to signed-in people. */
export function useUser(): User {
  const { user } = useAccount();
  if (!user) throw new Error('useUser needs a signed-in user');
  return user;
}
