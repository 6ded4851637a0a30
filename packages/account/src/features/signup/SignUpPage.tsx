import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@hearth/contract/provider';
import { useState } from 'react';
import { useAccount } from '../../app/account';
import { Field, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { afterSignIn } from '../../lib/pending-invite';
import { StrengthMeter } from './StrengthMeter';

const FIELDS = ['firstname', 'lastname', 'email', 'password', 'acceptTerms'];

/** Creating an account: the cloud mails a link that verifies the address. */
export function SignUpPage() {
  const { cloud, user, signIn } = useAccount();
  const [form, setForm] = useState({ firstname: '', lastname: '', email: '', password: '', acceptTerms: false });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = useSubmit(async () => {
    const answer = await cloud.services.cloud.signUp({ ...form, acceptTerms: form.acceptTerms as true });
    setSentTo(answer.email);
  });
  const set = (name: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setForm({ ...form, [name]: event.target.type === 'checkbox' ? event.target.checked : event.target.value });

  if (user)
    return (
      <section className="card">
        <h1 tabIndex={-1}>You are signed in</h1>
        <p>You already have an account: you are signed in as {user.email}.</p>
      </section>
    );
  if (sentTo)
    return (
      <section className="card">
        <h1 tabIndex={-1}>Check your inbox</h1>
        <Notice kind="success">
          We sent a link to <strong>{sentTo}</strong>. Open it within 48 hours to verify your address.
        </Notice>
        <p>You can sign in already; claiming a hub waits until your address is verified.</p>
        {afterSignIn() === '/' ? null : <p>Your invitation is waiting: signing in takes you back to it.</p>}
        <button type="button" className="button button--primary" onClick={() => signIn(afterSignIn())}>
          Sign in
        </button>
      </section>
    );
  const formError = submit.formLevel(FIELDS);
  return (
    <section className="card">
      <h1 tabIndex={-1}>Create your Hearth account</h1>
      {formError ? <Notice kind="error">{formError}</Notice> : null}
      <form onSubmit={submit.onSubmit} noValidate>
        <Field
          label="First name"
          name="firstname"
          autoComplete="given-name"
          required
          maxLength={100}
          value={form.firstname}
          onChange={set('firstname')}
          error={submit.fieldError('firstname')}
        />
        <Field
          label="Last name"
          name="lastname"
          autoComplete="family-name"
          maxLength={100}
          value={form.lastname}
          onChange={set('lastname')}
          error={submit.fieldError('lastname')}
        />
        <Field
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          value={form.email}
          onChange={set('email')}
          error={submit.fieldError('email')}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words make a strong password.`}
          value={form.password}
          onChange={set('password')}
          error={submit.fieldError('password')}
        >
          <StrengthMeter password={form.password} userInputs={[form.email, form.firstname, form.lastname]} />
        </Field>
        <div className="check">
          <input
            id="accept-terms"
            type="checkbox"
            required
            checked={form.acceptTerms}
            onChange={set('acceptTerms')}
            aria-invalid={submit.fieldError('acceptTerms') ? true : undefined}
            aria-describedby={submit.fieldError('acceptTerms') ? 'accept-terms-error' : undefined}
          />
          <label htmlFor="accept-terms">I accept the Hearth terms of service and privacy policy</label>
          {submit.fieldError('acceptTerms') ? (
            <p className="field-error" id="accept-terms-error">
              {submit.fieldError('acceptTerms')}
            </p>
          ) : null}
        </div>
        <SubmitButton busy={submit.busy}>Create account</SubmitButton>
      </form>
      <p>
        Already have an account?{' '}
        <button type="button" className="link" onClick={() => signIn('/')}>
          Sign in
        </button>
      </p>
    </section>
  );
}
