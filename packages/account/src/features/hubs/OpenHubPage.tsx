import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useUser } from '../../app/account';
import { strings } from '../../app/strings';
import { Notice } from '../../components/forms';
import { webAppOrigin, webAppSignInUrl } from './open';

/**
 * Opens one of the person's hubs in its household web app: finds the address that answers (local first, else the
 * relay) and goes there. The web app's own hub switcher comes back through here, as it cannot know the other hubs'
 * addresses.
 */
export function OpenHubPage({ id }: { id: string }) {
  const user = useUser();
  const hub = user.homeys.find((candidate) => candidate._id === id);
  const [unreachable, setUnreachable] = useState(false);
  useEffect(() => {
    if (!hub) return;
    let current = true;
    void webAppOrigin(hub).then((origin) => {
      if (!current) return;
      if (origin) window.location.assign(webAppSignInUrl(origin));
      else setUnreachable(true);
    });
    return () => {
      current = false;
    };
  }, [hub]);

  return (
    <section className="card">
      <h1 tabIndex={-1}>{hub ? strings.hubs.opening(hub.name) : strings.hubs.notFound}</h1>
      {!hub ? (
        <Notice kind="error">{strings.hubs.notYours}</Notice>
      ) : unreachable ? (
        <Notice kind="error">{strings.hubs.noAddress(hub.name)}</Notice>
      ) : (
        <p role="status">{strings.hubs.finding(hub.name)}</p>
      )}
      <p>
        <Link href={ACCOUNT_PAGES.hubs}>{strings.hubs.back}</Link>
      </p>
    </section>
  );
}

/** A link that opens the hub's web app (through {@link OpenHubPage}). */
export function OpenHubLink({ id, name, primary }: { id: string; name: string; primary?: boolean }) {
  return (
    <Link
      href={ACCOUNT_PAGES.openHub.replace(':id', encodeURIComponent(id))}
      className={primary ? 'button button--primary' : 'button'}
    >
      {strings.hubs.open(name)}
    </Link>
  );
}
