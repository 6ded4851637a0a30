import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { chooseLanguage, isLanguage } from '@hearth/i18n';
import { useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { useAccount, useUser } from '../../app/account';
import { i18n, strings } from '../../app/strings';
import { CurrentPassword, Field, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { AvatarEditor } from './AvatarEditor';

/** The languages an account can keep; the pages speak en, nl and de, and stay English for the others. */
const LANGUAGES = [
  ['en', 'English'],
  ['nl', 'Nederlands'],
  ['de', 'Deutsch'],
  ['fr', 'Français'],
  ['es', 'Español'],
  ['it', 'Italiano'],
  ['sv', 'Svenska'],
] as const;

function NameForm() {
  const { cloud, reloadUser } = useAccount();
  const user = useUser();
  const languageId = useId();
  const [form, setForm] = useState({ firstname: user.firstname, lastname: user.lastname, language: user.language });
  // The pages' language switcher saves to the account too: the form follows, so saving a name keeps that language.
  useEffect(() => setForm((current) => ({ ...current, language: user.language })), [user.language]);
  const submit = useSubmit(async () => {
    await cloud.services.cloud.updateUser({ id: user._id, user: form });
    // The pages speak the account's language at once when they can (and keep it in this browser as its choice).
    if (isLanguage(form.language)) await chooseLanguage(i18n, form.language);
    await reloadUser();
    return strings.profile.saved;
  });
  const formError = submit.formLevel(['firstname', 'lastname', 'language']);
  return (
    <section className="card" aria-labelledby="name-heading">
      <h2 id="name-heading">{strings.profile.nameAndLanguage}</h2>
      <form onSubmit={submit.onSubmit} noValidate>
        <Field
          label={strings.profile.firstname}
          autoComplete="given-name"
          maxLength={100}
          value={form.firstname}
          onChange={(e) => setForm({ ...form, firstname: e.target.value })}
          error={submit.fieldError('firstname')}
        />
        <Field
          label={strings.profile.lastname}
          autoComplete="family-name"
          maxLength={100}
          value={form.lastname}
          onChange={(e) => setForm({ ...form, lastname: e.target.value })}
          error={submit.fieldError('lastname')}
        />
        <div className="field">
          <label htmlFor={languageId}>{strings.profile.language}</label>
          <select id={languageId} value={form.language} onChange={(e) => setForm({ ...form, language: e.target.value })}>
            {LANGUAGES.map(([code, name]) => (
              <option key={code} value={code} lang={code}>
                {name}
              </option>
            ))}
            {LANGUAGES.some(([code]) => code === form.language) ? null : <option value={form.language}>{form.language}</option>}
          </select>
        </div>
        {formError ? <Notice kind="error">{formError}</Notice> : null}
        {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
        <SubmitButton busy={submit.busy}>{strings.profile.save}</SubmitButton>
      </form>
    </section>
  );
}

function EmailForm() {
  const { cloud } = useAccount();
  const user = useUser();
  const [form, setForm] = useState({ email: '', password: '' });
  const submit = useSubmit(async () => {
    const { pendingEmail } = await cloud.services.cloud.changeEmail(form);
    setForm({ email: '', password: '' });
    return strings.profile.emailSent(pendingEmail);
  });
  const formError = submit.formLevel(['email', 'password']);
  return (
    <section className="card" aria-labelledby="email-heading">
      <h2 id="email-heading">{strings.profile.emailTitle}</h2>
      <p>
        {strings.profile.yourAddress}
        <strong>{user.email}</strong>{' '}
        <span className={user.emailVerified ? 'tag tag--ok' : 'tag tag--warn'}>
          {user.emailVerified ? strings.profile.verified : strings.profile.unverified}
        </span>
      </p>
      <form onSubmit={submit.onSubmit} noValidate>
        <Field
          label={strings.profile.newEmail}
          type="email"
          autoComplete="email"
          maxLength={254}
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          error={submit.fieldError('email')}
        />
        <CurrentPassword
          value={form.password}
          onChange={(password) => setForm({ ...form, password })}
          error={submit.fieldError('password')}
        />
        {formError ? <Notice kind="error">{formError}</Notice> : null}
        {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
        <SubmitButton busy={submit.busy}>{strings.profile.changeEmail}</SubmitButton>
      </form>
    </section>
  );
}

/** The profile: picture, name, language and e-mail address; the way to delete the account. */
export function ProfilePage() {
  const user = useUser();
  return (
    <>
      <h1 tabIndex={-1}>{strings.profile.hello(user.firstname || user.email)}</h1>
      <AvatarEditor />
      <NameForm />
      <EmailForm />
      <section className="card card--danger" aria-labelledby="delete-heading">
        <h2 id="delete-heading">{strings.profile.deleteTitle}</h2>
        <p>{strings.profile.deleteIntro}</p>
        <Link href={ACCOUNT_PAGES.deleteAccount} className="button button--danger">
          {strings.profile.deleteLink}
        </Link>
      </section>
    </>
  );
}
