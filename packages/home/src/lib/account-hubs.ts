/**
 * The person's hubs as the cloud listed them at their last sign-in through it, kept beside the hub's session so
 * the app can offer a switch between them. Names and ids only: opening another hub goes through the account
 * pages, which know its addresses and which of them answers.
 */
import { ACCOUNT_PAGES } from '@hearth/contract/provider';

export const HUBS_KEY = 'hearth-home:hubs';

export interface AccountHubs {
  /** The cloud's origin (its account pages). */
  cloud: string;
  hubs: { id: string; name: string }[];
}

export function rememberHubs(cloud: string, hubs: AccountHubs['hubs']): void {
  localStorage.setItem(HUBS_KEY, JSON.stringify({ cloud: new URL(cloud).origin, hubs } satisfies AccountHubs));
}

export function forgetHubs(): void {
  localStorage.removeItem(HUBS_KEY);
}

/** What {@link rememberHubs} kept; `null` when nothing (or something unreadable) was. */
export function rememberedHubs(): AccountHubs | null {
  try {
    const kept = JSON.parse(localStorage.getItem(HUBS_KEY) ?? 'null') as AccountHubs | null;
    if (!kept || typeof kept.cloud !== 'string' || !Array.isArray(kept.hubs)) return null;
    return kept;
  } catch {
    return null;
  }
}

/** The account pages' address that opens hub `id` in its web app (local address when it answers, else the relay). */
export const openHubAddress = (cloud: string, id: string): string =>
  `${cloud}${ACCOUNT_PAGES.openHub.replace(':id', encodeURIComponent(id))}`;

/** The account pages' address of the person's hubs. */
export const accountHubsAddress = (cloud: string): string => `${cloud}${ACCOUNT_PAGES.hubs}`;
