import { CloudAPI, type CloudToken, errorFor, errorMessage, findOperation } from '@hearth/client/browser';
import { prepareRequest } from '@hearth/contract/client';
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
import { sendFile } from '../features/ticket/api/attachments';
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

  /** One upload; on a 401 `invalid_token` the token is refreshed (or taken from a refresh already made) once. */
  const upload = async (file: File, onProgress: (fraction: number) => void) => {
    const request = prepareRequest(helpdesk('uploadAttachment'), {
      filename: file.name,
      mimetype: file.type || 'application/octet-stream',
    });
    const url = `${cloud.baseUrlOf('helpdesk')}${request.path}?${new URLSearchParams(request.query)}`;
    const first = await cloud.getToken();
    let answer = await sendFile(url, first?.access_token, file, onProgress);
    if (answer.status === 401 && first?.refresh_token && (answer.body as { error?: unknown })?.error === 'invalid_token') {
      const current = await cloud.getToken();
      const token: CloudToken = current && current.access_token !== first.access_token ? current : await cloud.refreshToken();
      answer = await sendFile(url, token.access_token, file, onProgress);
    }
    const uploadToken = (answer.body as { token?: unknown } | undefined)?.token;
    if (answer.status >= 200 && answer.status < 300 && typeof uploadToken === 'string') {
      onProgress(1);
      return uploadToken;
    }
    const code = (answer.body as { error?: unknown } | undefined)?.error;
    throw errorFor(answer.status, errorMessage(answer.body, answer.statusText), typeof code === 'string' ? code : undefined);
  };

  return {
    init: () => completeSignIn(cloud),
    signIn: () => void startSignIn(cloud),
    signOut: () => {
      forgetHubs();
      void cloud.logout();
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
      })) as { ticketCreated: boolean },
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
  };
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs a ServicesContext provider');
  return services;
}
