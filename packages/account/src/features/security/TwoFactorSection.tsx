import type { cloudOperations, OperationResult } from '@hearth/contract';
import { useState } from 'react';
import { useAccount } from '../../app/account';
import { CopyButton, DownloadButton, GroupedKey } from '../../components/copy';
import { CurrentPassword, Field, Loading, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { useLoad } from '../../lib/useLoad';

type Setup = OperationResult<typeof cloudOperations.cloud.setupTwoFactor>;

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="recovery">
      <Notice kind="warning">
        Save these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are shown only now.
      </Notice>
      <ul className="codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton text={codes.join('\n')} label="Copy the codes" />
        <DownloadButton text={`${codes.join('\n')}\n`} fileName="hearth-recovery-codes.txt" label="Download the codes" />
      </div>
      <button type="button" className="button button--primary" onClick={onDone}>
        I saved my recovery codes
      </button>
    </div>
  );
}

function SetUp({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const { cloud } = useAccount();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const start = useSubmit(async () => {
    setSetup(await cloud.services.cloud.setupTwoFactor());
  });
  const confirm = useSubmit(async () => {
    const { recoveryCodes } = await cloud.services.cloud.enableTwoFactor({ code: code.replace(/\s/g, '') });
    onEnabled(recoveryCodes);
  });
  if (!setup)
    return (
      <>
        <p>Two-factor sign-in is off. Turn it on to also ask for a code from an authenticator app when you sign in.</p>
        {start.error ? <Notice kind="error">{start.error.message}</Notice> : null}
        <button type="button" className="button button--primary" onClick={() => void start.onSubmit()} disabled={start.busy}>
          Turn on two-factor sign-in
        </button>
      </>
    );
  return (
    <form onSubmit={confirm.onSubmit} noValidate>
      <ol className="steps">
        <li>
          Scan this QR code with an authenticator app.
          <img
            className="qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt="QR code for your authenticator app"
            width={200}
            height={200}
          />
          <p>Cannot scan? Type this key into the app:</p>
          <div className="actions">
            <GroupedKey value={setup.secret} testId="totp-secret" />
            <CopyButton text={setup.secret} label="Copy the key" />
          </div>
        </li>
        <li>Enter the six-digit code the app shows.</li>
      </ol>
      <Field
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={confirm.error?.message ?? null}
      />
      <SubmitButton busy={confirm.busy}>Turn on</SubmitButton>
    </form>
  );
}

/** Confirms with the password and a code: turning two-factor off, or replacing the recovery codes. */
function Confirmed({
  action,
  label,
  danger,
}: {
  action: (body: { password: string; code: string }) => Promise<void>;
  label: string;
  danger?: boolean;
}) {
  const [form, setForm] = useState({ password: '', code: '' });
  const submit = useSubmit(() => action(form));
  const formError = submit.formLevel(['password', 'code']);
  return (
    <form onSubmit={submit.onSubmit} noValidate className="subform">
      <CurrentPassword
        value={form.password}
        onChange={(password) => setForm({ ...form, password })}
        error={submit.fieldError('password')}
      />
      <Field
        label="Code from the app, or a recovery code"
        autoComplete="one-time-code"
        value={form.code}
        onChange={(e) => setForm({ ...form, code: e.target.value })}
        error={submit.fieldError('code')}
      />
      {formError ? <Notice kind="error">{formError}</Notice> : null}
      <SubmitButton busy={submit.busy} danger={danger}>
        {label}
      </SubmitButton>
    </form>
  );
}

/** Two-factor sign-in: set up from a QR code, recovery codes shown once, turned off with password and code. */
export function TwoFactorSection() {
  const { cloud, reloadUser } = useAccount();
  const [status, reload] = useLoad(() => cloud.services.cloud.getTwoFactor(), [cloud]);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [open, setOpen] = useState<'off' | 'codes' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const after = (message: string, next: string[] | null = null) => {
    setOpen(null);
    setCodes(next);
    setNotice(message);
    reload();
    void reloadUser();
  };
  let body: React.ReactNode;
  if (codes) body = <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  else if (status.state === 'loading') body = <Loading />;
  else if (status.state === 'failed') body = <Notice kind="error">Two-factor settings could not be loaded.</Notice>;
  else if (!status.data.enabled) body = <SetUp onEnabled={(next) => after('Two-factor sign-in is on.', next)} />;
  else
    body = (
      <>
        <p>
          <span className="tag tag--ok">On</span> Signing in asks for a code from your authenticator app.{' '}
          {status.data.recoveryCodesLeft} recovery codes left.
        </p>
        <div className="actions">
          <button
            type="button"
            className="button"
            aria-expanded={open === 'codes'}
            onClick={() => setOpen(open === 'codes' ? null : 'codes')}
          >
            New recovery codes
          </button>
          <button
            type="button"
            className="button button--danger"
            aria-expanded={open === 'off'}
            onClick={() => setOpen(open === 'off' ? null : 'off')}
          >
            Turn off
          </button>
        </div>
        {open === 'codes' ? (
          <Confirmed
            label="Make new recovery codes"
            action={async (form) => {
              const { recoveryCodes } = await cloud.services.cloud.regenerateRecoveryCodes(form);
              after('Your old recovery codes no longer work.', recoveryCodes);
            }}
          />
        ) : null}
        {open === 'off' ? (
          <Confirmed
            danger
            label="Turn off two-factor sign-in"
            action={async (form) => {
              await cloud.services.cloud.disableTwoFactor(form);
              after('Two-factor sign-in is off.');
            }}
          />
        ) : null}
      </>
    );
  return (
    <section className="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor sign-in</h2>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {body}
    </section>
  );
}
