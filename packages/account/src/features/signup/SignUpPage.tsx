import { ACCOUNT_PAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@hearth/contract/provider';
import { useState } from 'react';
import { useAccount } from '../../app/account';
import { Field, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { afterSignIn } from '../../lib/pending-invite';
import { StrengthMeter } from './StrengthMeter';

const FIELDS = ['firstname', 'lastname', 'email', 'password', 'acceptTerms'];

type Form = { firstname: string; lastname: string; email: string; password: string; acceptTerms: boolean };

/**
 * What the form can tell before asking the cloud: every required field left empty at once (the cloud names only the
 * first it meets). The cloud still checks everything, the password's strength among it.
 */
function missingFields(form: Form): Record<string, string> {
  const missing: Record<string, string> = {};
  if (!form.firstname.trim()) missing.firstname = 'Enter your first name.';
  if (!form.email.trim()) missing.email = 'Enter your e-mail address.';
  else if (!/^[^\s@]+@[^\s@]+$/.test(form.email.trim())) missing.email = 'Enter a valid e-mail address.';
  if (!form.password) missing.password = 'Choose a password.';
  else if (form.password.length < PASSWORD_MIN_LENGTH) missing.password = `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (!form.acceptTerms) missing.acceptTerms = 'Accept the terms of service to create an account.';
  return missing;
}

/** Creating an account: the cloud mails a link that verifies the address. */
export function SignUpPage() {
  const { cloud, user, signIn } = useAccount();
  const [form, setForm] = useState<Form>({ firstname: '', lastname: '', email: '', password: '', acceptTerms: false });
  const [sentTo, setSentTo] = useState<string | null>(null);
  // The form's own findings, and the fields changed since the last answer (whose errors no longer hold).
  const [missing, setMissing] = useState<Record<string, string>>({});
  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  const submit = useSubmit(async () => {
    const answer = await cloud.services.cloud.signUp({ ...form, acceptTerms: form.acceptTerms as true });
    setSentTo(answer.email);
  });
  const set = (name: keyof Form) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setForm({ ...form, [name]: event.target.type === 'checkbox' ? event.target.checked : event.target.value });
    setChanged((fields) => new Set(fields).add(name));
    if (missing[name]) setMissing(({ [name]: _, ...rest }) => rest);
  };
  const errorOf = (name: string) => missing[name] ?? (changed.has(name) ? null : submit.fieldError(name));
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = missingFields(form);
    setMissing(found);
    setChanged(new Set());
    const first = FIELDS.find((name) => found[name]);
    if (first) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    void submit.onSubmit();
  };

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
      <form onSubmit={onSubmit} noValidate>
        <Field
          label="First name"
          name="firstname"
          autoComplete="given-name"
          required
          maxLength={100}
          value={form.firstname}
          onChange={set('firstname')}
          error={errorOf('firstname')}
        />
        <Field
          label="Last name"
          name="lastname"
          autoComplete="family-name"
          maxLength={100}
          value={form.lastname}
          onChange={set('lastname')}
          error={errorOf('lastname')}
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
          error={errorOf('email')}
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
          error={errorOf('password')}
        >
          <StrengthMeter password={form.password} userInputs={[form.email, form.firstname, form.lastname]} />
        </Field>
        <div className="check">
          <input
            id="accept-terms"
            name="acceptTerms"
            type="checkbox"
            required
            checked={form.acceptTerms}
            onChange={set('acceptTerms')}
            aria-invalid={errorOf('acceptTerms') ? true : undefined}
            aria-describedby={errorOf('acceptTerms') ? 'accept-terms-error' : undefined}
          />
          <label htmlFor="accept-terms">I accept the Hearth terms of service and privacy policy</label>
          {errorOf('acceptTerms') ? (
            <p className="field-error" id="accept-terms-error">
              {errorOf('acceptTerms')}
            </p>
          ) : null}
        </div>
        {/* In a tab of their own, so the form keeps what was typed. */}
        <p>
          Read the{' '}
          <a href={ACCOUNT_PAGES.terms} target="_blank" rel="noopener">
            terms of service
          </a>{' '}
          and the{' '}
          <a href={ACCOUNT_PAGES.privacy} target="_blank" rel="noopener">
            privacy policy
          </a>
          .
        </p>
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
