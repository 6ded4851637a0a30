import { ACCOUNT_PAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@hearth/contract/provider';
import { currentLanguage } from '@hearth/i18n';
import { useState } from 'react';
import { useAccount } from '../../app/account';
import { i18n, strings } from '../../app/strings';
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
  const t = strings.signUp;
  const missing: Record<string, string> = {};
  if (!form.firstname.trim()) missing.firstname = t.enterFirstname;
  if (!form.email.trim()) missing.email = t.enterEmail;
  else if (!/^[^\s@]+@[^\s@]+$/.test(form.email.trim())) missing.email = t.validEmail;
  if (!form.password) missing.password = t.choosePassword;
  else if (form.password.length < PASSWORD_MIN_LENGTH) missing.password = t.tooShort(PASSWORD_MIN_LENGTH);
  if (!form.acceptTerms) missing.acceptTerms = t.acceptTerms;
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
    // The account keeps the language the pages speak now: its next sign-ins, in any browser, speak it too.
    const language = currentLanguage(i18n);
    const answer = await cloud.services.cloud.signUp({ ...form, language, acceptTerms: form.acceptTerms as true });
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

  const t = strings.signUp;
  if (user)
    return (
      <section className="card">
        <h1 tabIndex={-1}>{t.signedInTitle}</h1>
        <p>{t.signedIn(user.email)}</p>
      </section>
    );
  if (sentTo)
    return (
      <section className="card">
        <h1 tabIndex={-1}>{t.inboxTitle}</h1>
        <Notice kind="success">
          {t.sentBefore}
          <strong>{sentTo}</strong>
          {t.sentAfter}
        </Notice>
        <p>{t.canSignIn}</p>
        {afterSignIn() === '/' ? null : <p>{t.invitationWaits}</p>}
        <button type="button" className="button button--primary" onClick={() => signIn(afterSignIn())}>
          {strings.common.signIn}
        </button>
      </section>
    );
  const formError = submit.formLevel(FIELDS);
  return (
    <section className="card">
      <h1 tabIndex={-1}>{t.title}</h1>
      {formError ? <Notice kind="error">{formError}</Notice> : null}
      <form onSubmit={onSubmit} noValidate>
        <Field
          label={t.firstname}
          name="firstname"
          autoComplete="given-name"
          required
          maxLength={100}
          value={form.firstname}
          onChange={set('firstname')}
          error={errorOf('firstname')}
        />
        <Field
          label={t.lastname}
          name="lastname"
          autoComplete="family-name"
          maxLength={100}
          value={form.lastname}
          onChange={set('lastname')}
          error={errorOf('lastname')}
        />
        <Field
          label={t.email}
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
          label={t.password}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          maxLength={PASSWORD_MAX_LENGTH}
          hint={t.passwordHint(PASSWORD_MIN_LENGTH)}
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
          <label htmlFor="accept-terms">{t.accept}</label>
          {errorOf('acceptTerms') ? (
            <p className="field-error" id="accept-terms-error">
              {errorOf('acceptTerms')}
            </p>
          ) : null}
        </div>
        {/* In a tab of their own, so the form keeps what was typed. */}
        <p>
          {t.readBefore}
          <a href={ACCOUNT_PAGES.terms} target="_blank" rel="noopener">
            {t.readTerms}
          </a>
          {t.readBetween}
          <a href={ACCOUNT_PAGES.privacy} target="_blank" rel="noopener">
            {t.readPrivacy}
          </a>
          {t.readAfter}
        </p>
        <SubmitButton busy={submit.busy}>{strings.common.createAccount}</SubmitButton>
      </form>
      <p>
        {t.haveAccount}{' '}
        <button type="button" className="link" onClick={() => signIn('/')}>
          {strings.common.signIn}
        </button>
      </p>
    </section>
  );
}
