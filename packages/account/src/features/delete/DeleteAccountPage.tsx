import { APIError } from '@hearth/client/browser';
import { useState } from 'react';
import { Link } from 'wouter';
import { useAccount, useUser } from '../../app/account';
import { strings } from '../../app/strings';
import { CurrentPassword, Field, Notice, SubmitButton, useSubmit } from '../../components/forms';

/** Deleting the account: what happens to hubs and data, said before; the password (and code) confirm it. */
export function DeleteAccountPage() {
  const { cloud, forget } = useAccount();
  const user = useUser();
  const [form, setForm] = useState({ password: '', code: '', understood: false });
  const owned = user.homeys.filter((hub) => hub.role === 'owner');
  const shared = user.homeys.filter((hub) => hub.role !== 'owner');
  const submit = useSubmit(async () => {
    // Refused here as the server refuses a field, so it shows the same way.
    if (!form.understood) throw new APIError(`Invalid Parameter: understood. ${strings.deleteAccount.tickBox}`, 400);
    await cloud.services.cloud.deleteUser({
      id: user._id,
      password: form.password,
      ...(user.twoFactorEnabled ? { code: form.code } : {}),
    });
    await forget({
      title: strings.deleteAccount.deleted,
      message: strings.deleteAccount.farewell(user.email),
    });
  });
  const formError = submit.formLevel(['password', 'code', 'understood']);
  const t = strings.deleteAccount;
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <section className="card card--danger" aria-labelledby="consequences-heading">
        <h2 id="consequences-heading">{t.what}</h2>
        <ul>
          {owned.length > 0 ? (
            <li>
              {t.releasedBefore}
              <strong>{owned.map((hub) => hub.name).join(', ')}</strong>
              {t.releasedAfter}
            </li>
          ) : (
            <li>{t.ownsNone}</li>
          )}
          {shared.length > 0 ? <li>{t.leaves(shared.map((hub) => hub.name).join(', '))}</li> : null}
          <li>{t.removed}</li>
          <li>{t.apps}</li>
          <li>{t.confirmation(user.email)}</li>
        </ul>
      </section>
      <section className="card" aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">{t.confirm}</h2>
        <form onSubmit={submit.onSubmit} noValidate>
          <CurrentPassword
            value={form.password}
            onChange={(password) => setForm({ ...form, password })}
            error={submit.fieldError('password')}
          />
          {user.twoFactorEnabled ? (
            <Field
              label={t.code}
              autoComplete="one-time-code"
              value={form.code}
              onChange={(e) => setForm({ ...form, code: e.target.value })}
              error={submit.fieldError('code')}
            />
          ) : null}
          <div className="check">
            <input
              id="understood"
              type="checkbox"
              checked={form.understood}
              onChange={(e) => setForm({ ...form, understood: e.target.checked })}
            />
            <label htmlFor="understood">{t.understood}</label>
            {submit.fieldError('understood') ? <p className="field-error">{submit.fieldError('understood')}</p> : null}
          </div>
          {formError ? <Notice kind="error">{formError}</Notice> : null}
          <div className="actions">
            <SubmitButton busy={submit.busy} danger>
              {t.submit}
            </SubmitButton>
            <Link href="/" className="button">
              {t.keep}
            </Link>
          </div>
        </form>
      </section>
    </>
  );
}
