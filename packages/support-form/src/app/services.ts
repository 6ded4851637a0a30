import { APIError, CloudAPI, type CloudToken, findOperation } from '@hearth/client/browser';
import { prepareRequest } from '@hearth/contract/client';
import { appPagePath } from '@hearth/contract/provider';
import { createContext, useContext } from 'react';
import { toAppDetails } from '../features/apps/api/getApp';
import {
  CLIENT_ID,
  completeSignIn,
  formStore,
  isTokenStorageEvent,
  redirectUri,
  startSignIn,
} from '../features/auth/api/session';
import { createHubClient, type HubClient } from '../features/hub/api/hub';
import { toOrders, toUser } from '../features/main-category/api/account';
import type { TicketPayload } from '../features/ticket/api/createTicket';
import type { AppDetails, Article, Hub, Order, User } from '../types/entities';

/**
 * Everything the form reads and sends, behind one interface: the browser uses {@link createHttpServices};
 * component tests pass their own.
 */
export interface Services {
  /** Finishes a sign-in in progress (OAuth2 code in the address) and answers whether the user is signed in. */
  init(): Promise<boolean>;
  signIn(): void;
  /** Ends the session on the cloud (its tokens stop working), then forgets it in this browser. */
  signOut(): Promise<void>;
  /** Calls `listener` when the sign-in changes in another tab; answers the unsubscribe function. */
  onAuthChange(listener: (signedIn: boolean) => void): () => void;
  getUser(): Promise<User>;
  getOrders(): Promise<Order[]>;
  getApp(appId: string): Promise<AppDetails>;
  getArticle(id: string): Promise<Article>;
  uploadAttachment(file: File, onProgress: (fraction: number) => void): Promise<string>;
  /** Answers whether the ticket was created, and its id (the number the confirmation e-mail gives). */
  createTicket(payload: TicketPayload, idempotencyKey: string): Promise<{ ticketCreated: boolean; id?: string }>;
  hub(hub: Hub): HubClient;
  /** Where "Can't sign in?" leads. */
  cantSignInUrl: string;
  /** The app's page in the cloud's app catalogue, where an out-of-date app is updated. */
  appPageUrl(appId: string): string;
}

/**
 * The form's services over @hearth/client: the cloud's sign-in (authorization code with PKCE), the user and their
 * orders, the app catalogue and the helpdesk through one CloudAPI (which refreshes an expired token once, shared
 * by concurrent calls), and each hub through the HubAPI its cloud record authenticates.
 */
export function createHttpServices(cloudUrl: string): Services {
  const cloud = new CloudAPI({ clientId: CLIENT_ID, redirectUrl: redirectUri(), baseUrl: cloudUrl, store: formStore });
  const hubs = new Map<string, ReturnType<typeof createHubClient>>();
  const forgetHubs = () => {
    for (const client of hubs.values()) client.destroy();
    hubs.clear();
  };
  const helpdesk = (name: string) => findOperation('cloud', 'helpdesk', name);

  /** One upload with progress through the client (which refreshes an expired token once); answers its token. */
  const upload = async (file: File, onProgress: (fraction: number) => void) => {
    const request = prepareRequest(helpdesk('uploadAttachment'), {
      filename: file.name,
      mimetype: file.type || 'application/octet-stream',
    });
    const answer = await cloud.upload(request, file, onProgress, 'application/octet-stream');
    const uploadToken = (answer as { token?: unknown } | undefined)?.token;
    if (typeof uploadToken !== 'string') throw new APIError('Invalid response from server', 500, 'invalid_response');
    return uploadToken;
  };

  return {
    init: () => completeSignIn(cloud),
    signIn: () => void startSignIn(cloud),
    signOut: async () => {
      forgetHubs();
      try {
        if (await cloud.isLoggedIn()) await cloud.services.cloud.signOut({});
      } catch (error) {
        // Signed out here all the same: a session the cloud could not be told about expires with its token.
        console.warn('Could not end the session on the cloud', error);
      } finally {
        await cloud.logout();
      }
    },
    onAuthChange: (listener) => {
      const handler = (event: StorageEvent) => {
        if (!isTokenStorageEvent(event)) return;
        // Another tab signed in, refreshed or signed out: this tab's client takes the stored token (or none).
        forgetHubs();
        const token = (formStore.get() as { token?: CloudToken }).token ?? null;
        void cloud.setToken(token).then(() => listener(token !== null));
      };
      window.addEventListener('storage', handler);
      return () => window.removeEventListener('storage', handler);
    },
    getUser: async () => toUser((await cloud.getAuthenticatedUser()).data),
    getOrders: async () => toOrders(await cloud.services.store.getOrders()),
    getApp: async (appId) => toAppDetails((await cloud.services.apps.getApp({ appId })) as unknown as Record<string, unknown>),
    getArticle: async (id) => {
      const { name, html_url } = await cloud.services.helpdesk.getArticle({ id });
      return { id, name, html_url };
    },
    uploadAttachment: upload,
    // The same Idempotency-Key on a retry creates no second ticket.
    createTicket: async (payload, idempotencyKey) =>
      (await cloud.send(prepareRequest(helpdesk('createTicket'), payload), undefined, {
        'Idempotency-Key': idempotencyKey,
      })) as { ticketCreated: boolean; id?: string },
    hub: (hub) => {
      let client = hubs.get(hub.id);
      if (!client) {
        client = createHubClient(async () => {
          const user = cloud.user ?? (await cloud.getAuthenticatedUser());
          return user.getHubById(hub.id).authenticate();
        });
        hubs.set(hub.id, client);
      }
      return client;
    },
    cantSignInUrl: `${cloudUrl}/api/helpdesk/articles/cant-sign-in`,
    appPageUrl: (appId) => `${cloudUrl}${appPagePath(appId)}`,
  };
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs a ServicesContext provider');
  return services;
}
