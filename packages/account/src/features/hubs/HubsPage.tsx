import { Link } from 'wouter';
import { useUser } from '../../app/account';
import { strings } from '../../app/strings';
import { ClaimForm } from './ClaimHubPage';
import { roleLabel, stateLabel } from './labels';
import { OpenHubLink } from './OpenHubPage';
import { OnlineTag, useHubsOnline } from './online';

/** The user's hubs (owned and shared), and claiming a new one. */
export function HubsPage() {
  const user = useUser();
  const online = useHubsOnline();
  return (
    <>
      <h1 tabIndex={-1}>{strings.hubs.title}</h1>
      {user.homeys.length === 0 ? (
        <p className="empty">{strings.hubs.none}</p>
      ) : (
        <ul className="tiles" aria-label={strings.hubs.yours}>
          {user.homeys.map((hub) => (
            <li key={hub._id} className="tile">
              <Link href={`/hubs/${hub._id}`} className="tile__title">
                {hub.name}
              </Link>
              <OnlineTag online={online?.get(hub._id)} />
              <span>
                {hub.modelName} · {strings.hubs.version(hub.softwareVersion)}
              </span>
              <span className="meta">
                {stateLabel(hub.state)} · {roleLabel(hub.role)}
              </span>
              <OpenHubLink id={hub._id} name={hub.name} primary />
            </li>
          ))}
        </ul>
      )}
      <ClaimForm />
    </>
  );
}
