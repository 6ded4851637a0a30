import { strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { Tokens } from './Tokens';
import { useMembers } from './useMembers';
import './people.css';

const t = strings.people;

/**
 * The household's members with their roles and presence, live from the users manager's events (useMembers) (a member coming
 * home or going to sleep shows at once, no polling), and the caller's access tokens (read over the API: the hub
 * announces no token events).
 */
export function PeoplePage() {
  const members = useMembers();
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
              .sort((a, b) => a.name.localeCompare(b.name))
              .map((member) => (
                <li key={member.id} className="row" data-user-id={member.id}>
                  <span className="row__main">
                    <strong>{member.name}</strong>
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
