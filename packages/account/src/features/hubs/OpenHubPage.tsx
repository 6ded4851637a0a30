import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useUser } from '../../app/account';
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
      <h1 tabIndex={-1}>{hub ? `Opening ${hub.name}` : 'Hub not found'}</h1>
      {!hub ? (
        <Notice kind="error">This hub is not one of yours, or it was removed from your account.</Notice>
      ) : unreachable ? (
        <Notice kind="error">
          {hub.name} has no address to open it at yet: it has not connected to the cloud since it was set up. Check that it is on
          and online, then try again.
        </Notice>
      ) : (
        <p role="status">Finding {hub.name} on your network, else through the cloud…</p>
      )}
      <p>
        <Link href={ACCOUNT_PAGES.hubs}>Back to your hubs</Link>
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
      Open {name}
    </Link>
  );
}
