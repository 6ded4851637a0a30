import { messages } from './errors';

/** What a client keeps between runs: the cloud token, the signed-in user and sign-in state (PKCE verifier). */
export type StoredState = Record<string, unknown>;

/**
 * Where a client keeps its {@link StoredState}. Implement `get` and `set` (sync or async) to store it
 * anywhere: a file, a keychain, a cookie.
 */
export interface StorageAdapter {
  get(): StoredState | Promise<StoredState>;
  set(value: StoredState): void | Promise<void>;
}

/** Throws 'The store must be a storage adapter' unless `store` implements {@link StorageAdapter}. */
export function checkStorageAdapter(store: unknown): StorageAdapter {
  const candidate = store as Partial<StorageAdapter> | null;
  if (!candidate || typeof candidate.get !== 'function' || typeof candidate.set !== 'function') {
    throw new TypeError(messages.badStore);
  }
  return candidate as StorageAdapter;
}

/** Keeps state in memory for the life of the process: the default in Node. */
export class MemoryStorageAdapter implements StorageAdapter {
  private state: StoredState = {};
  get(): StoredState {
    return { ...this.state };
  }
  set(value: StoredState): void {
    this.state = { ...value };
  }
}

/** The key browsers store the client's state under (the seed's `{product}-api`). */
export const BROWSER_STORAGE_KEY = 'homey-api';

/** Minimal Web Storage interface, so the core needs no DOM types. */
export interface WebStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Keeps state as JSON in a Web Storage (`localStorage` by default in browsers) under `homey-api`. */
export class WebStorageAdapter implements StorageAdapter {
  constructor(
    private readonly storage: WebStorage,
    private readonly key: string = BROWSER_STORAGE_KEY,
  ) {}
  get(): StoredState {
    try {
      const parsed: unknown = JSON.parse(this.storage.getItem(this.key) ?? '{}');
      return typeof parsed === 'object' && parsed !== null ? (parsed as StoredState) : {};
    } catch {
      return {};
    }
  }
  set(value: StoredState): void {
    if (Object.keys(value).length === 0) this.storage.removeItem(this.key);
    else this.storage.setItem(this.key, JSON.stringify(value));
  }
}
