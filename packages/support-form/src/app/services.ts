import { createContext, useContext } from 'react';
import { getApp } from '../features/apps/api/getApp';
import { clearToken, completeSignIn, readToken, refreshSession, startSignIn } from '../features/auth/api/session';
import { createHubClient, type HubClient } from '../features/hub/api/hub';
import { getArticle } from '../features/knowledge-base/api/getArticle';
import { getOrders, getUser } from '../features/main-category/api/account';
import { uploadAttachment } from '../features/ticket/api/attachments';
import { createTicket, type TicketPayload } from '../features/ticket/api/createTicket';
import { HttpError } from '../lib/http';
import type { AppDetails, Article, Hub, Order, User } from '../types/entities';

/**
 * Everything the form reads and sends, behind one interface: the browser uses {@link createHttpServices};
 * component tests pass their own.
 */
export interface Services {
  /** Finishes a sign-in in progress (OAuth2 code in the address) and answers whether the user is signed in. */
  init(): Promise<boolean>;
  signIn(): void;
  signOut(): void;
  /** Calls `listener` when the sign-in changes in another tab; answers the unsubscribe function. */
  onAuthChange(listener: (signedIn: boolean) => void): () => void;
  getUser(): Promise<User>;
  getOrders(): Promise<Order[]>;
  getApp(appId: string): Promise<AppDetails>;
  getArticle(id: string): Promise<Article>;
  uploadAttachment(file: File, onProgress: (fraction: number) => void): Promise<string>;
  createTicket(payload: TicketPayload, idempotencyKey: string): Promise<{ ticketCreated: boolean }>;
  hub(hub: Hub): HubClient;
  /** Where "Can't sign in?" leads. */
  cantSignInUrl: string;
}

export function createHttpServices(cloudUrl: string): Services {
  const token = () => readToken()?.access_token ?? null;
  const hubs = new Map<string, HubClient>();
  /** A cloud call that, refused with 401 (expired access token), refreshes the session once and retries. */
  const authed = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof HttpError && error.status === 401 && (await refreshSession(cloudUrl))) return call();
      throw error;
    }
  };
  return {
    init: () => completeSignIn(cloudUrl),
    signIn: () => void startSignIn(cloudUrl),
    signOut: () => {
      clearToken();
      hubs.clear();
    },
    onAuthChange: (listener) => {
      const handler = (event: StorageEvent) => {
        if (event.key === null || event.key?.startsWith('hearth-support-form:token')) listener(token() !== null);
      };
      window.addEventListener('storage', handler);
      return () => window.removeEventListener('storage', handler);
    },
    getUser: () => authed(() => getUser(cloudUrl, token() ?? '')),
    getOrders: () => authed(() => getOrders(cloudUrl, token() ?? '')),
    getApp: (appId) => authed(() => getApp(cloudUrl, token(), appId)),
    getArticle: (id) => getArticle(cloudUrl, token(), id),
    uploadAttachment: (file, onProgress) => uploadAttachment(cloudUrl, token(), file, onProgress),
    createTicket: (payload, key) => authed(() => createTicket(cloudUrl, token(), payload, key)),
    hub: (hub) => {
      let client = hubs.get(hub.id);
      if (!client) {
        client = createHubClient(hub, cloudUrl, token);
        hubs.set(hub.id, client);
      }
      return client;
    },
    cantSignInUrl: `${cloudUrl}/api/helpdesk/articles/cant-sign-in`,
  };
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs a ServicesContext provider');
  return services;
}
