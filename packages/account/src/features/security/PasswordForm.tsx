import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@hearth/contract/provider';
import { useState } from 'react';
import { useAccount, useUser } from '../../app/account';
import { strings } from '../../app/strings';
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
    return form.removePasskeys ? strings.security.changedNoPasskeys : strings.security.changed;
  });
  const formError = submit.formLevel(['old_password', 'password']);
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">{strings.security.password}</h2>
      <form onSubmit={submit.onSubmit} noValidate>
        <CurrentPassword
          label={strings.security.currentPassword}
          value={form.old_password}
          onChange={(old_password) => setForm({ ...form, old_password })}
          error={submit.fieldError('old_password')}
        />
        <Field
          label={strings.security.newPassword}
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
          <label htmlFor="password-remove-passkeys">{strings.security.alsoPasskeys}</label>
        </div>
        {formError ? <Notice kind="error">{formError}</Notice> : null}
        {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
        <SubmitButton busy={submit.busy}>{strings.security.change}</SubmitButton>
      </form>
    </section>
  );
}
