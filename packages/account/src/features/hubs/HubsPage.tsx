import { useState } from 'react';
import { Link } from 'wouter';
import { useAccount, useUser } from '../../app/account';
import { Field, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { ROLE_LABELS, stateLabel } from './labels';
import { OpenHubLink } from './OpenHubPage';
import { OnlineTag, useHubsOnline } from './online';

function ClaimForm() {
  const { cloud, reloadUser } = useAccount();
  const user = useUser();
  const [code, setCode] = useState('');
  const submit = useSubmit(async () => {
    const hub = await cloud.services.cloud.claimHomey({ code: code.trim() });
    setCode('');
    await reloadUser();
    return `${hub.name} is yours now.`;
  });
  return (
    <section className="card" aria-labelledby="claim-heading">
      <h2 id="claim-heading">Claim a hub</h2>
      <p>A new hub shows a one-time code when it starts. Enter it to make the hub yours.</p>
      <form onSubmit={submit.onSubmit} noValidate>
        <Field
          label="Claim code"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={submit.error?.message ?? null}
          disabled={!user.emailVerified}
          hint={user.emailVerified ? undefined : 'Verify your e-mail address first.'}
        />
        {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
        <SubmitButton busy={submit.busy}>Claim hub</SubmitButton>
      </form>
    </section>
  );
}

/** The user's hubs (owned and shared), and claiming a new one. */
export function HubsPage() {
  const user = useUser();
  const online = useHubsOnline();
  return (
    <>
      <h1 tabIndex={-1}>Hubs</h1>
      {user.homeys.length === 0 ? (
        <p className="empty">You have no hubs yet. Claim one below with the code it shows.</p>
      ) : (
        <ul className="tiles" aria-label="Your hubs">
          {user.homeys.map((hub) => (
            <li key={hub._id} className="tile">
              <Link href={`/hubs/${hub._id}`} className="tile__title">
                {hub.name}
              </Link>
              <OnlineTag online={online?.get(hub._id)} />
              <span>
                {hub.modelName} · version {hub.softwareVersion}
              </span>
              <span className="meta">
                {stateLabel(hub.state)} · {ROLE_LABELS[hub.role] ?? hub.role}
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
