import { useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { type Hub, useAccount, useUser } from '../../app/account';
import { Field, Loading, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';
import { ROLE_LABELS, stateLabel } from './labels';
import { OpenHubLink } from './OpenHubPage';
import { OnlineTag, useHubsOnline } from './online';

type Role = 'manager' | 'user' | 'guest';

function RoleSelect({
  label,
  value,
  onChange,
  roles,
}: {
  label: string;
  value: Role;
  onChange: (role: Role) => void;
  roles: readonly Role[];
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as Role)}>
        {roles.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </select>
    </div>
  );
}

function Rename({ hub }: { hub: Hub }) {
  const { cloud, reloadUser } = useAccount();
  const [name, setName] = useState(hub.name);
  const submit = useSubmit(async () => {
    await cloud.services.cloud.updateHomey({ id: hub._id, homey: { name } });
    await reloadUser();
    return 'The hub is renamed.';
  });
  return (
    <form onSubmit={submit.onSubmit} noValidate className="subform">
      <Field
        label="Hub name"
        maxLength={64}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={submit.error?.message ?? null}
      />
      {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
      <SubmitButton busy={submit.busy}>Rename</SubmitButton>
    </form>
  );
}

function Household({ hub, manages, owns }: { hub: Hub; manages: boolean; owns: boolean }) {
  const { cloud, reloadUser } = useAccount();
  const user = useUser();
  const [members, reloadMembers] = useLoad(() => cloud.services.cloud.getHomeyUsers({ homeyId: hub._id }), [cloud, hub._id]);
  const [invites, reloadInvites] = useLoad(
    () => (manages ? cloud.services.cloud.getHomeyInvites({ homeyId: hub._id }) : Promise.resolve([])),
    [cloud, hub._id, manages],
  );
  const [invite, setInvite] = useState<{ email: string; role: Role }>({ email: '', role: 'user' });
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const sendInvite = useSubmit(async () => {
    await cloud.services.cloud.createHomeyInvite({ homeyId: hub._id, ...invite });
    const sent = `Invitation sent to ${invite.email}.`;
    setInvite({ email: '', role: 'user' });
    reloadInvites();
    return sent;
  });
  const act = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      setNotice({ kind: 'success', text: done });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    reloadMembers();
    reloadInvites();
    await reloadUser();
  };
  return (
    <section className="card" aria-labelledby="household-heading">
      <h2 id="household-heading">Household</h2>
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      {members.state === 'loading' ? <Loading /> : null}
      {members.state === 'failed' ? <Notice kind="error">The household could not be loaded.</Notice> : null}
      {members.state === 'ready' ? (
        <ul className="list" aria-label="Household members">
          {members.data.map((member) => (
            <li key={member._id} className="list__item">
              <div>
                <strong>{member.fullname || member.email || 'A Hearth user'}</strong>
                {member._id === user._id ? ' (you)' : ''}
                <p className="meta">
                  {ROLE_LABELS[member.role] ?? member.role}
                  {member.email ? ` · ${member.email}` : ''}
                </p>
              </div>
              {owns && member.role !== 'owner' ? (
                <div className="actions">
                  <RoleSelect
                    label={`Role of ${member.fullname}`}
                    value={member.role as Role}
                    roles={['manager', 'user', 'guest']}
                    onChange={(role) =>
                      void act(
                        () => cloud.services.cloud.createHomeyUser({ homeyId: hub._id, user: member._id, role }),
                        `${member.fullname} is now ${ROLE_LABELS[role]?.toLowerCase()}.`,
                      )
                    }
                  />
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() =>
                      void act(
                        () => cloud.services.cloud.deleteHomeyUser({ homeyId: hub._id, userId: member._id }),
                        `${member.fullname} was removed.`,
                      )
                    }
                  >
                    Remove {member.fullname}
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {manages ? (
        <>
          <h3>Invite someone</h3>
          <form onSubmit={sendInvite.onSubmit} noValidate className="subform">
            <Field
              label="Their e-mail address"
              type="email"
              autoComplete="off"
              value={invite.email}
              onChange={(e) => setInvite({ ...invite, email: e.target.value })}
              error={sendInvite.fieldError('email')}
            />
            <RoleSelect
              label="Role"
              value={invite.role}
              roles={owns ? ['manager', 'user', 'guest'] : ['user', 'guest']}
              onChange={(role) => setInvite({ ...invite, role })}
            />
            {sendInvite.formLevel(['email']) ? <Notice kind="error">{sendInvite.formLevel(['email'])}</Notice> : null}
            {sendInvite.done ? <Notice kind="success">{sendInvite.done}</Notice> : null}
            <SubmitButton busy={sendInvite.busy}>Send invitation</SubmitButton>
          </form>
          <h3>Open invitations</h3>
          {invites.state === 'ready' && invites.data.length === 0 ? <p className="empty">No open invitations.</p> : null}
          {invites.state === 'ready' && invites.data.length > 0 ? (
            <ul className="list" aria-label="Open invitations">
              {invites.data.map((open) => (
                <li key={open._id} className="list__item">
                  <span>
                    {open.email} · {ROLE_LABELS[open.role]}
                  </span>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={`Withdraw the invitation to ${open.email}`}
                    onClick={() =>
                      void act(
                        () => cloud.services.cloud.deleteHomeyInvite({ homeyId: hub._id, inviteId: open._id }),
                        'The invitation is withdrawn.',
                      )
                    }
                  >
                    Withdraw
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

/** Asks once more before something that cannot be undone. */
function Confirm({ label, question, onConfirm }: { label: string; question: string; onConfirm: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const submit = useSubmit(onConfirm);
  if (!asking)
    return (
      <button type="button" className="button button--danger" onClick={() => setAsking(true)}>
        {label}…
      </button>
    );
  return (
    <fieldset className="confirm">
      <legend>{question}</legend>
      {submit.error ? <Notice kind="error">{submit.error.message}</Notice> : null}
      <div className="actions">
        <button type="button" className="button button--danger" onClick={() => void submit.onSubmit()} disabled={submit.busy}>
          {label}
        </button>
        <button type="button" className="button" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}

function Transfer({ hub }: { hub: Hub }) {
  const { cloud, reloadUser } = useAccount();
  const id = useId();
  const members = hub.users.filter((u) => u.role !== 'owner');
  const [to, setTo] = useState(members[0]?._id ?? '');
  const [people] = useLoad(() => cloud.services.cloud.getHomeyUsers({ homeyId: hub._id }), [cloud, hub._id]);
  if (members.length === 0) return <p className="meta">To hand this hub over, first invite the new owner to its household.</p>;
  const nameOf = (userId: string) =>
    (people.state === 'ready' ? people.data.find((p) => p._id === userId)?.fullname : undefined) || userId;
  return (
    <div className="subform">
      <div className="field">
        <label htmlFor={id}>New owner</label>
        <select id={id} value={to} onChange={(e) => setTo(e.target.value)}>
          {members.map((member) => (
            <option key={member._id} value={member._id}>
              {nameOf(member._id)}
            </option>
          ))}
        </select>
      </div>
      <Confirm
        label="Hand over this hub"
        question={`${nameOf(to)} becomes the owner; you stay on as a manager.`}
        onConfirm={async () => {
          await cloud.services.cloud.transferHomey({ id: hub._id, userId: to });
          await reloadUser();
        }}
      />
    </div>
  );
}

/** One hub: its facts, name, household (members, invitations) and ownership. */
export function HubPage({ id }: { id: string }) {
  const { cloud, reloadUser } = useAccount();
  const user = useUser();
  const [, navigate] = useLocation();
  const online = useHubsOnline();
  const hub = user.homeys.find((h) => h._id === id);
  if (!hub)
    return (
      <>
        <h1 tabIndex={-1}>Hub not found</h1>
        <p>
          <Link href="/hubs">Back to your hubs</Link>
        </p>
      </>
    );
  const owns = hub.role === 'owner';
  const manages = owns || hub.role === 'manager';
  return (
    <>
      <p>
        <Link href="/hubs">← All hubs</Link>
      </p>
      <h1 tabIndex={-1}>{hub.name}</h1>
      <p>
        <OpenHubLink id={hub._id} name={hub.name} primary />
      </p>
      <section className="card" aria-labelledby="facts-heading">
        <h2 id="facts-heading">About this hub</h2>
        <dl className="facts">
          <dt>Model</dt>
          <dd>{hub.modelName}</dd>
          <dt>Software</dt>
          <dd>{hub.softwareVersion}</dd>
          <dt>State</dt>
          <dd>{stateLabel(hub.state)}</dd>
          <dt>Connection</dt>
          <dd>
            <OnlineTag online={online?.get(hub._id)} />
          </dd>
          <dt>Runs</dt>
          <dd>{hub.platform === 'cloud' ? 'In the Hearth cloud' : 'At home'}</dd>
          <dt>Your role</dt>
          <dd>{ROLE_LABELS[hub.role] ?? hub.role}</dd>
        </dl>
        {owns ? <Rename hub={hub} /> : null}
      </section>
      <Household hub={hub} manages={manages} owns={owns} />
      <section className="card card--danger" aria-labelledby="ownership-heading">
        <h2 id="ownership-heading">{owns ? 'Ownership' : 'Leave'}</h2>
        {owns ? (
          <>
            <Transfer hub={hub} />
            <Confirm
              label="Remove this hub"
              question="The hub is released: its household loses access through Hearth, and it can be claimed again with the code it shows when it starts."
              onConfirm={async () => {
                await cloud.services.cloud.deleteHomey({ id: hub._id });
                await reloadUser();
                navigate('/hubs');
              }}
            />
          </>
        ) : (
          <Confirm
            label="Leave this household"
            question="You lose access to this hub until someone invites you again."
            onConfirm={async () => {
              await cloud.services.cloud.deleteHomeyUser({ homeyId: hub._id, userId: user._id });
              await reloadUser();
              navigate('/hubs');
            }}
          />
        )}
      </section>
    </>
  );
}
