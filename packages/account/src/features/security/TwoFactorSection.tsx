import type { cloudOperations, OperationResult } from '@hearth/contract';
import { useState } from 'react';
import { useAccount } from '../../app/account';
import { format, strings } from '../../app/strings';
import { CopyButton, DownloadButton, GroupedKey } from '../../components/copy';
import { CurrentPassword, Field, Loading, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { useLoad } from '../../lib/useLoad';

type Setup = OperationResult<typeof cloudOperations.cloud.setupTwoFactor>;

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="recovery">
      <Notice kind="warning">{strings.twoFactor.saveCodes}</Notice>
      <ul className="codes" aria-label={strings.twoFactor.codes}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <CopyButton text={codes.join('\n')} label={strings.twoFactor.copyCodes} />
        <DownloadButton
          text={`${codes.join('\n')}\n`}
          fileName="hearth-recovery-codes.txt"
          label={strings.twoFactor.downloadCodes}
        />
      </div>
      <button type="button" className="button button--primary" onClick={onDone}>
        {strings.twoFactor.savedCodes}
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
        <p>{strings.twoFactor.off}</p>
        {start.error ? <Notice kind="error">{start.error.message}</Notice> : null}
        <button type="button" className="button button--primary" onClick={() => void start.onSubmit()} disabled={start.busy}>
          {strings.twoFactor.turnOnLong}
        </button>
      </>
    );
  return (
    <form onSubmit={confirm.onSubmit} noValidate>
      <ol className="steps">
        <li>
          {strings.twoFactor.scan}
          <img
            className="qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
            alt={strings.twoFactor.qr}
            width={200}
            height={200}
          />
          <p>{strings.twoFactor.cannotScan}</p>
          <div className="actions">
            <GroupedKey value={setup.secret} testId="totp-secret" />
            <CopyButton text={setup.secret} label={strings.twoFactor.copyKey} />
          </div>
        </li>
        <li>{strings.twoFactor.enterCode}</li>
      </ol>
      <Field
        label={strings.twoFactor.codeFromApp}
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={confirm.error?.message ?? null}
      />
      <SubmitButton busy={confirm.busy}>{strings.twoFactor.turnOn}</SubmitButton>
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
        label={strings.twoFactor.codeOrRecovery}
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
  else if (status.state === 'failed') body = <Notice kind="error">{strings.twoFactor.failed}</Notice>;
  else if (!status.data.enabled) body = <SetUp onEnabled={(next) => after(strings.twoFactor.isOn, next)} />;
  else
    body = (
      <>
        <p>
          <span className="tag tag--ok">{strings.twoFactor.on}</span> {strings.twoFactor.asks}{' '}
          {strings.twoFactor.codesLeft(format.number(status.data.recoveryCodesLeft))}
        </p>
        <div className="actions">
          <button
            type="button"
            className="button"
            aria-expanded={open === 'codes'}
            onClick={() => setOpen(open === 'codes' ? null : 'codes')}
          >
            {strings.twoFactor.newCodes}
          </button>
          <button
            type="button"
            className="button button--danger"
            aria-expanded={open === 'off'}
            onClick={() => setOpen(open === 'off' ? null : 'off')}
          >
            {strings.twoFactor.turnOff}
          </button>
        </div>
        {open === 'codes' ? (
          <Confirmed
            label={strings.twoFactor.makeCodes}
            action={async (form) => {
              const { recoveryCodes } = await cloud.services.cloud.regenerateRecoveryCodes(form);
              after(strings.twoFactor.oldCodesGone, recoveryCodes);
            }}
          />
        ) : null}
        {open === 'off' ? (
          <Confirmed
            danger
            label={strings.twoFactor.turnOffLong}
            action={async (form) => {
              await cloud.services.cloud.disableTwoFactor(form);
              after(strings.twoFactor.isOff);
            }}
          />
        ) : null}
      </>
    );
  return (
    <section className="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">{strings.twoFactor.title}</h2>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {body}
    </section>
  );
}
