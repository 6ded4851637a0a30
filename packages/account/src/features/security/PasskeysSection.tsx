import type { cloudOperations, OperationResult } from '@hearth/contract';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useAccount } from '../../app/account';
import { format, strings } from '../../app/strings';
import { CurrentPassword, Field, Loading, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';

type Passkey = OperationResult<typeof cloudOperations.cloud.getPasskeys>[number];

const when = (iso: string) => format.date(iso);

/** A passkey's row: its name and dates, renamed in place or removed. */
function PasskeyItem({ passkey, onChanged }: { passkey: Passkey; onChanged: (message: string) => void }) {
  const { cloud } = useAccount();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const rename = useSubmit(async () => {
    await cloud.services.cloud.renamePasskey({ passkeyId: passkey._id, name });
    setRenaming(false);
    onChanged(strings.passkeys.renamed(name.trim()));
  });
  const remove = async () => {
    try {
      await cloud.services.cloud.deletePasskey({ passkeyId: passkey._id });
      onChanged(strings.passkeys.removed(passkey.name));
    } catch (error) {
      onChanged(messageOf(error));
    }
  };
  return (
    <li className="list__item">
      <div>
        <strong>{passkey.name}</strong>
        {passkey.backedUp ? <span className="tag tag--ok">{strings.passkeys.synced}</span> : null}
        <p className="meta">
          {strings.passkeys.added(when(passkey.createdAt))} ·{' '}
          {passkey.lastUsedAt ? strings.passkeys.lastUsed(when(passkey.lastUsedAt)) : strings.passkeys.notUsed}
        </p>
      </div>
      <div className="actions">
        <button
          type="button"
          className="button button--small"
          aria-expanded={renaming}
          aria-label={strings.passkeys.renameLabel(passkey.name)}
          onClick={() => setRenaming(!renaming)}
        >
          {strings.passkeys.rename}
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          aria-label={strings.passkeys.removeLabel(passkey.name)}
          onClick={() => void remove()}
        >
          {strings.passkeys.remove}
        </button>
      </div>
      {renaming ? (
        <form onSubmit={rename.onSubmit} noValidate className="subform passkey-rename">
          <Field
            label={strings.passkeys.newName(passkey.name)}
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={rename.error?.message ?? null}
          />
          <SubmitButton busy={rename.busy}>{strings.passkeys.saveName}</SubmitButton>
        </form>
      ) : null}
    </li>
  );
}

/** Passkeys (WebAuthn): added with the device's own prompt, then listed, renamed and removed. */
export function PasskeysSection({ generation }: { generation: number }) {
  const { cloud } = useAccount();
  const [passkeys, reload] = useLoad(() => cloud.services.cloud.getPasskeys(), [cloud, generation]);
  const [twoFactor] = useLoad(() => cloud.services.cloud.getTwoFactor(), [cloud]);
  const [name, setName] = useState('');
  // A passkey signs in alone, so adding one asks for the password (and the second factor's code) again.
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  // The device's prompt fails in its own words (not the cloud's): shown apart from the cloud's refusals.
  const [promptError, setPromptError] = useState<string | null>(null);
  const supported = browserSupportsWebAuthn();
  const add = useSubmit(async () => {
    setPromptError(null);
    const { options } = await cloud.services.cloud.startPasskeyRegistration({
      password,
      ...(code.trim() ? { code: code.trim() } : {}),
    });
    let response: Awaited<ReturnType<typeof startRegistration>>;
    try {
      response = await startRegistration({ optionsJSON: options as never });
    } catch (error) {
      setPromptError((error as Error).name === 'NotAllowedError' ? strings.passkeys.promptClosed : (error as Error).message);
      return undefined;
    }
    const added = await cloud.services.cloud.addPasskey({
      name: name.trim() || strings.passkeys.defaultName,
      response: response as unknown as Record<string, unknown>,
    });
    setName('');
    setPassword('');
    setCode('');
    setNotice(null);
    reload();
    return strings.passkeys.addedDone(added.name);
  });
  const changed = (message: string) => {
    setNotice(message);
    add.setDone(null);
    reload();
  };
  return (
    <section className="card" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">{strings.passkeys.title}</h2>
      <p>{strings.passkeys.intro}</p>
      {notice ? <Notice>{notice}</Notice> : null}
      {passkeys.state === 'loading' ? <Loading /> : null}
      {passkeys.state === 'failed' ? <Notice kind="error">{strings.passkeys.failed}</Notice> : null}
      {passkeys.state === 'ready' ? (
        passkeys.data.length === 0 ? (
          <p className="empty">{strings.passkeys.none}</p>
        ) : (
          <ul className="list" aria-label={strings.passkeys.yours}>
            {passkeys.data.map((passkey) => (
              <PasskeyItem key={`${passkey._id}:${passkey.name}`} passkey={passkey} onChanged={changed} />
            ))}
          </ul>
        )
      ) : null}
      {supported ? (
        <form onSubmit={add.onSubmit} noValidate className="subform">
          <Field
            label={strings.passkeys.name}
            hint={strings.passkeys.nameHint}
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <CurrentPassword value={password} onChange={setPassword} error={null} hint={strings.passkeys.passwordHint} />
          {twoFactor.state === 'ready' && twoFactor.data.enabled ? (
            <Field
              label={strings.passkeys.code}
              hint={strings.passkeys.codeHint}
              autoComplete="one-time-code"
              maxLength={32}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          ) : null}
          {add.error || promptError ? <Notice kind="error">{add.error?.message ?? promptError}</Notice> : null}
          {add.done ? <Notice kind="success">{add.done}</Notice> : null}
          <SubmitButton busy={add.busy}>{strings.passkeys.add}</SubmitButton>
        </form>
      ) : (
        <Notice>{strings.passkeys.unsupported}</Notice>
      )}
    </section>
  );
}
