import { APIError } from '@hearth/client/browser';
import { useState } from 'react';
import { Link } from 'wouter';
import { useAccount, useUser } from '../../app/account';
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
    if (!form.understood) throw new APIError('Invalid Parameter: understood. Tick the box to confirm.', 400);
    await cloud.services.cloud.deleteUser({
      id: user._id,
      password: form.password,
      ...(user.twoFactorEnabled ? { code: form.code } : {}),
    });
    await forget({
      title: 'Your account is deleted',
      message: `Everything stored with your account is gone. We sent a confirmation to ${user.email}.`,
    });
  });
  const formError = submit.formLevel(['password', 'code', 'understood']);
  return (
    <>
      <h1 tabIndex={-1}>Delete your account</h1>
      <section className="card card--danger" aria-labelledby="consequences-heading">
        <h2 id="consequences-heading">What happens</h2>
        <ul>
          {owned.length > 0 ? (
            <li>
              Your hubs are released: <strong>{owned.map((hub) => hub.name).join(', ')}</strong>. Their household members lose
              access through Hearth, and each hub can be claimed again with the code it shows when it starts.
            </li>
          ) : (
            <li>You own no hubs.</li>
          )}
          {shared.length > 0 ? <li>You leave the households of {shared.map((hub) => hub.name).join(', ')}.</li> : null}
          <li>Your profile, picture, sign-ins, phones, addresses, orders, subscriptions and support tickets are removed.</li>
          <li>If you publish apps, hand them to another developer first: the account is not deleted until then.</li>
          <li>We send a confirmation to {user.email}. This cannot be undone.</li>
        </ul>
      </section>
      <section className="card" aria-labelledby="confirm-heading">
        <h2 id="confirm-heading">Confirm</h2>
        <form onSubmit={submit.onSubmit} noValidate>
          <CurrentPassword
            value={form.password}
            onChange={(password) => setForm({ ...form, password })}
            error={submit.fieldError('password')}
          />
          {user.twoFactorEnabled ? (
            <Field
              label="Code from your authenticator app, or a recovery code"
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
            <label htmlFor="understood">I understand that my account and its data are deleted for good</label>
            {submit.fieldError('understood') ? <p className="field-error">{submit.fieldError('understood')}</p> : null}
          </div>
          {formError ? <Notice kind="error">{formError}</Notice> : null}
          <div className="actions">
            <SubmitButton busy={submit.busy} danger>
              Delete my account
            </SubmitButton>
            <Link href="/" className="button">
              Keep my account
            </Link>
          </div>
        </form>
      </section>
    </>
  );
}
