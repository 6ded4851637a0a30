import type { cloudOperations, OperationResult } from '@hearth/contract';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useAccount } from '../../app/account';
import { CurrentPassword, Field, Loading, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { messageOf } from '../../lib/errors';
import { useLoad } from '../../lib/useLoad';

type Passkey = OperationResult<typeof cloudOperations.cloud.getPasskeys>[number];

const when = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** A passkey's row: its name and dates, renamed in place or removed. */
function PasskeyItem({ passkey, onChanged }: { passkey: Passkey; onChanged: (message: string) => void }) {
  const { cloud } = useAccount();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const rename = useSubmit(async () => {
    await cloud.services.cloud.renamePasskey({ passkeyId: passkey._id, name });
    setRenaming(false);
    onChanged(`The passkey is now called ${name.trim()}.`);
  });
  const remove = async () => {
    try {
      await cloud.services.cloud.deletePasskey({ passkeyId: passkey._id });
      onChanged(`The passkey ${passkey.name} is removed: it no longer signs you in.`);
    } catch (error) {
      onChanged(messageOf(error));
    }
  };
  return (
    <li className="list__item">
      <div>
        <strong>{passkey.name}</strong>
        {passkey.backedUp ? <span className="tag tag--ok">Synced</span> : null}
        <p className="meta">
          Added {when(passkey.createdAt)} · {passkey.lastUsedAt ? `last used ${when(passkey.lastUsedAt)}` : 'not used yet'}
        </p>
      </div>
      <div className="actions">
        <button
          type="button"
          className="button button--small"
          aria-expanded={renaming}
          aria-label={`Rename ${passkey.name}`}
          onClick={() => setRenaming(!renaming)}
        >
          Rename
        </button>
        <button
          type="button"
          className="button button--small button--danger"
          aria-label={`Remove ${passkey.name}`}
          onClick={() => void remove()}
        >
          Remove
        </button>
      </div>
      {renaming ? (
        <form onSubmit={rename.onSubmit} noValidate className="subform passkey-rename">
          <Field
            label={`New name for ${passkey.name}`}
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={rename.error?.message ?? null}
          />
          <SubmitButton busy={rename.busy}>Save name</SubmitButton>
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
      setPromptError(
        (error as Error).name === 'NotAllowedError'
          ? 'No passkey was made: the prompt was closed or timed out.'
          : (error as Error).message,
      );
      return undefined;
    }
    const added = await cloud.services.cloud.addPasskey({
      name: name.trim() || 'Passkey',
      response: response as unknown as Record<string, unknown>,
    });
    setName('');
    setPassword('');
    setCode('');
    setNotice(null);
    reload();
    return `The passkey ${added.name} is added. You can sign in with it instead of your password.`;
  });
  const changed = (message: string) => {
    setNotice(message);
    add.setDone(null);
    reload();
  };
  return (
    <section className="card" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p>A passkey signs you in with your device’s fingerprint, face or screen lock, without a password.</p>
      {notice ? <Notice>{notice}</Notice> : null}
      {passkeys.state === 'loading' ? <Loading /> : null}
      {passkeys.state === 'failed' ? <Notice kind="error">Your passkeys could not be loaded.</Notice> : null}
      {passkeys.state === 'ready' ? (
        passkeys.data.length === 0 ? (
          <p className="empty">You have no passkeys yet.</p>
        ) : (
          <ul className="list" aria-label="Your passkeys">
            {passkeys.data.map((passkey) => (
              <PasskeyItem key={`${passkey._id}:${passkey.name}`} passkey={passkey} onChanged={changed} />
            ))}
          </ul>
        )
      ) : null}
      {supported ? (
        <form onSubmit={add.onSubmit} noValidate className="subform">
          <Field
            label="Name of the new passkey"
            hint="So you can tell your passkeys apart, for example “Work laptop”."
            maxLength={60}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <CurrentPassword
            value={password}
            onChange={setPassword}
            error={null}
            hint="A passkey signs you in without your password, so adding one asks for it once more."
          />
          {twoFactor.state === 'ready' && twoFactor.data.enabled ? (
            <Field
              label="Two-factor code"
              hint="From your authenticator app, or one of your recovery codes."
              autoComplete="one-time-code"
              maxLength={32}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          ) : null}
          {add.error || promptError ? <Notice kind="error">{add.error?.message ?? promptError}</Notice> : null}
          {add.done ? <Notice kind="success">{add.done}</Notice> : null}
          <SubmitButton busy={add.busy}>Add a passkey</SubmitButton>
        </form>
      ) : (
        <Notice>This browser cannot make passkeys.</Notice>
      )}
    </section>
  );
}
