import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@hearth/contract/provider';
import { useState } from 'react';
import { useAccount, useUser } from '../../app/account';
import { CurrentPassword, Field, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { StrengthMeter } from '../signup/StrengthMeter';

/** Changing the password: the old one is required, and every other sign-in ends. */
export function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const { cloud } = useAccount();
  const user = useUser();
  const [form, setForm] = useState({ old_password: '', password: '', removePasskeys: false });
  const submit = useSubmit(async () => {
    await cloud.services.cloud.updateAuthenticatedUserPassword(form);
    setForm({ old_password: '', password: '', removePasskeys: false });
    onChanged();
    return form.removePasskeys
      ? 'Your password is changed. Every other sign-in was ended and your passkeys are removed.'
      : 'Your password is changed. Every other sign-in was ended.';
  });
  const formError = submit.formLevel(['old_password', 'password']);
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form onSubmit={submit.onSubmit} noValidate>
        <CurrentPassword
          label="Current password"
          value={form.old_password}
          onChange={(old_password) => setForm({ ...form, old_password })}
          error={submit.fieldError('old_password')}
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          value={form.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
          error={submit.fieldError('password')}
        >
          <StrengthMeter password={form.password} userInputs={[user.email, user.firstname, user.lastname]} />
        </Field>
        {/* A passkey signs in without the password: someone who changed it to lock a thief out wants them gone too. */}
        <div className="check">
          <input
            id="password-remove-passkeys"
            type="checkbox"
            checked={form.removePasskeys}
            onChange={(e) => setForm({ ...form, removePasskeys: e.target.checked })}
          />
          <label htmlFor="password-remove-passkeys">Also remove my passkeys (they sign in without a password)</label>
        </div>
        {formError ? <Notice kind="error">{formError}</Notice> : null}
        {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
        <SubmitButton busy={submit.busy}>Change password</SubmitButton>
      </form>
    </section>
  );
}
