import { useEffect, useState } from 'react';
import { strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { useHub } from '../../lib/hub';
import { Tokens } from './Tokens';
import { useMembers } from './useMembers';
import './people.css';

const t = strings.people;

/** The signed-in member's id (null until known, or when the hub does not say). */
function useMyId(): string | null {
  const { hub } = useHub();
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    hub.users.getUserMe().then(
      (me) => current && setId(me.id),
      // Without it the list is still right; only the "(you)" mark is missing.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [hub]);
  return id;
}

/**
 * The household's members with their roles and presence, live from the users manager's events (useMembers) (a member coming
 * home or going to sleep shows at once, no polling), and the caller's access tokens (read over the API: the hub
 * announces no token events).
 */
export function PeoplePage() {
  const members = useMembers();
  const me = useMyId();
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <section aria-labelledby="members">
        <h2 id="members">{t.members}</h2>
        {members.state === 'failed' ? <Failed error={members.error} /> : null}
        {members.state === 'loading' ? <Loading /> : null}
        {members.state === 'ready' ? (
          <ul className="rows">
            {[...members.items]
              // The signed-in member first, then the others by name.
              .sort((a, b) => Number(b.id === me) - Number(a.id === me) || a.name.localeCompare(b.name))
              .map((member) => (
                <li key={member.id} className="row" data-user-id={member.id}>
                  <span className="row__main">
                    <strong>
                      {member.name}
                      {member.id === me ? ` ${t.you}` : null}
                    </strong>
                    <span className="badge">{t.roles[member.role as keyof typeof t.roles] ?? member.role}</span>
                  </span>
                  <span className="muted" data-testid="presence">
                    {member.asleep ? t.asleep : member.present ? t.home : t.away}
                  </span>
                </li>
              ))}
          </ul>
        ) : null}
      </section>
      <Tokens />
    </>
  );
}
