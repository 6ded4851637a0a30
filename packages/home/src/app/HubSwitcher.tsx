import type { CoreHubAPI } from '@hearth/client/browser';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { accountHubsAddress, openHubAddress, rememberedHubs } from '../lib/account-hubs';
import { strings } from './strings';
import './hub-switcher.css';

const t = strings.hubs;

/** The hub's name as it calls itself; the remembered one (or nothing) until it answers, or when it may not say. */
function useHubName(hub: CoreHubAPI, remembered: string | undefined): string | undefined {
  const [name, setName] = useState(remembered);
  useEffect(() => {
    let current = true;
    (hub.system.getSystemName() as Promise<string>).then(
      (answer) => current && setName(answer),
      (error: unknown) => console.warn('Hub name', error),
    );
    return () => {
      current = false;
    };
  }, [hub]);
  return name;
}

/**
 * The hub's name in the top bar, opening a list of the person's other hubs and their Hearth account (a disclosure
 * of plain links, as the sections' "More"). Another hub opens through the account pages, which know its addresses.
 * Signed in without the cloud, the name alone.
 */
export function HubSwitcher({ hub }: { hub: CoreHubAPI }) {
  const [kept] = useState(rememberedHubs);
  const name = useHubName(hub, kept?.hubs.find((candidate) => candidate.id === hub.id)?.name);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (!name) return null;
  if (!kept) return <span className="hub-name">{name}</span>;
  const others = kept.hubs.filter((candidate) => candidate.id !== hub.id);
  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    button.current?.focus();
  }
  return (
    <nav className="hub-switcher" aria-label={t.label} onKeyDown={closeOnEscape}>
      <button
        ref={button}
        type="button"
        className="hub-switcher__button"
        aria-expanded={open}
        aria-controls="hub-switcher-list"
        aria-label={t.menu(name)}
        onClick={() => setOpen((was) => !was)}
      >
        <span className="hub-name">{name}</span>
        <span aria-hidden="true">▾</span>
      </button>
      <div id="hub-switcher-list" className="hub-switcher__panel" hidden={!open}>
        {others.length > 0 ? (
          <>
            <p className="hub-switcher__heading" id="hub-switcher-others">
              {t.others}
            </p>
            <ul aria-labelledby="hub-switcher-others">
              {others.map((other) => (
                <li key={other.id}>
                  <a href={openHubAddress(kept.cloud, other.id)}>{other.name}</a>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <a href={accountHubsAddress(kept.cloud)}>{t.account}</a>
      </div>
    </nav>
  );
}
