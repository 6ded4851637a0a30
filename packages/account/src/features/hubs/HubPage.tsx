import { useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { type Hub, useAccount, useUser } from '../../app/account';
import { strings } from '../../app/strings';
import { Field, Loading, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';
import { roleLabel, stateLabel } from './labels';
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
            {roleLabel(role)}
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
    return strings.hub.renamed;
  });
  return (
    <form onSubmit={submit.onSubmit} noValidate className="subform">
      <Field
        label={strings.hub.name}
        maxLength={64}
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={submit.error?.message ?? null}
      />
      {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
      <SubmitButton busy={submit.busy}>{strings.hub.rename}</SubmitButton>
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
    const sent = strings.hub.inviteSent(invite.email);
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
      <h2 id="household-heading">{strings.hub.household}</h2>
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      {members.state === 'loading' ? <Loading /> : null}
      {members.state === 'failed' ? <Notice kind="error">{strings.hub.householdFailed}</Notice> : null}
      {members.state === 'ready' ? (
        <ul className="list" aria-label={strings.hub.members}>
          {members.data.map((member) => (
            <li key={member._id} className="list__item">
              <div>
                <strong>{member.fullname || member.email || strings.hub.someone}</strong>
                {member._id === user._id ? strings.hub.you : ''}
                <p className="meta">
                  {roleLabel(member.role)}
                  {member.email ? ` · ${member.email}` : ''}
                </p>
              </div>
              {owns && member.role !== 'owner' ? (
                <div className="actions">
                  <RoleSelect
                    label={strings.hub.roleOf(member.fullname)}
                    value={member.role as Role}
                    roles={['manager', 'user', 'guest']}
                    onChange={(role) =>
                      void act(
                        () => cloud.services.cloud.createHomeyUser({ homeyId: hub._id, user: member._id, role }),
                        strings.hub.roleChanged(member.fullname, strings.roleInSentence(roleLabel(role))),
                      )
                    }
                  />
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() =>
                      void act(
                        () => cloud.services.cloud.deleteHomeyUser({ homeyId: hub._id, userId: member._id }),
                        strings.hub.removed(member.fullname),
                      )
                    }
                  >
                    {strings.hub.remove(member.fullname)}
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {manages ? (
        <>
          <h3>{strings.hub.invite}</h3>
          <form onSubmit={sendInvite.onSubmit} noValidate className="subform">
            <Field
              label={strings.hub.theirEmail}
              type="email"
              autoComplete="off"
              value={invite.email}
              onChange={(e) => setInvite({ ...invite, email: e.target.value })}
              error={sendInvite.fieldError('email')}
            />
            <RoleSelect
              label={strings.hub.role}
              value={invite.role}
              roles={owns ? ['manager', 'user', 'guest'] : ['user', 'guest']}
              onChange={(role) => setInvite({ ...invite, role })}
            />
            {sendInvite.formLevel(['email']) ? <Notice kind="error">{sendInvite.formLevel(['email'])}</Notice> : null}
            {sendInvite.done ? <Notice kind="success">{sendInvite.done}</Notice> : null}
            <SubmitButton busy={sendInvite.busy}>{strings.hub.sendInvite}</SubmitButton>
          </form>
          <h3>{strings.hub.openInvites}</h3>
          {invites.state === 'ready' && invites.data.length === 0 ? <p className="empty">{strings.hub.noInvites}</p> : null}
          {invites.state === 'ready' && invites.data.length > 0 ? (
            <ul className="list" aria-label={strings.hub.openInvites}>
              {invites.data.map((open) => (
                <li key={open._id} className="list__item">
                  <span>
                    {open.email} · {roleLabel(open.role)}
                  </span>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={strings.hub.withdrawLabel(open.email)}
                    onClick={() =>
                      void act(
                        () => cloud.services.cloud.deleteHomeyInvite({ homeyId: hub._id, inviteId: open._id }),
                        strings.hub.withdrawn,
                      )
                    }
                  >
                    {strings.hub.withdraw}
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
          {strings.common.cancel}
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
  if (members.length === 0) return <p className="meta">{strings.hub.inviteFirst}</p>;
  const nameOf = (userId: string) =>
    (people.state === 'ready' ? people.data.find((p) => p._id === userId)?.fullname : undefined) || userId;
  return (
    <div className="subform">
      <div className="field">
        <label htmlFor={id}>{strings.hub.newOwner}</label>
        <select id={id} value={to} onChange={(e) => setTo(e.target.value)}>
          {members.map((member) => (
            <option key={member._id} value={member._id}>
              {nameOf(member._id)}
            </option>
          ))}
        </select>
      </div>
      <Confirm
        label={strings.hub.handOver}
        question={strings.hub.handOverQuestion(nameOf(to))}
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
        <h1 tabIndex={-1}>{strings.hubs.notFound}</h1>
        <p>
          <Link href="/hubs">{strings.hubs.back}</Link>
        </p>
      </>
    );
  const owns = hub.role === 'owner';
  const manages = owns || hub.role === 'manager';
  return (
    <>
      <p>
        <Link href="/hubs">{strings.hubs.all}</Link>
      </p>
      <h1 tabIndex={-1}>{hub.name}</h1>
      <p>
        <OpenHubLink id={hub._id} name={hub.name} primary />
      </p>
      <section className="card" aria-labelledby="facts-heading">
        <h2 id="facts-heading">{strings.hub.about}</h2>
        <dl className="facts">
          <dt>{strings.hub.model}</dt>
          <dd>{hub.modelName}</dd>
          <dt>{strings.hub.software}</dt>
          <dd>{hub.softwareVersion}</dd>
          <dt>{strings.hub.state}</dt>
          <dd>{stateLabel(hub.state)}</dd>
          <dt>{strings.hub.connection}</dt>
          <dd>
            <OnlineTag online={online?.get(hub._id)} />
          </dd>
          <dt>{strings.hub.runs}</dt>
          <dd>{hub.platform === 'cloud' ? strings.hub.inCloud : strings.hub.atHome}</dd>
          <dt>{strings.hub.yourRole}</dt>
          <dd>{roleLabel(hub.role)}</dd>
        </dl>
        {owns ? <Rename hub={hub} /> : null}
      </section>
      <Household hub={hub} manages={manages} owns={owns} />
      <section className="card card--danger" aria-labelledby="ownership-heading">
        <h2 id="ownership-heading">{owns ? strings.hub.ownership : strings.hub.leave}</h2>
        {owns ? (
          <>
            <Transfer hub={hub} />
            <Confirm
              label={strings.hub.removeHub}
              question={strings.hub.removeQuestion}
              onConfirm={async () => {
                await cloud.services.cloud.deleteHomey({ id: hub._id });
                await reloadUser();
                navigate('/hubs');
              }}
            />
          </>
        ) : (
          <Confirm
            label={strings.hub.leaveHousehold}
            question={strings.hub.leaveQuestion}
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
