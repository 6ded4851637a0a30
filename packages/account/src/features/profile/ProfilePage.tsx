import { ACCOUNT_PAGES } from '@hearth/contract/provider';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { useAccount, useUser } from '../../app/account';
import { CurrentPassword, Field, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { AvatarEditor } from './AvatarEditor';

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
  const submit = useSubmit(async () => {
    await cloud.services.cloud.updateUser({ id: user._id, user: form });
    await reloadUser();
    return 'Your details are saved.';
  });
  const formError = submit.formLevel(['firstname', 'lastname', 'language']);
  return (
    <section className="card" aria-labelledby="name-heading">
      <h2 id="name-heading">Name and language</h2>
      <form onSubmit={submit.onSubmit} noValidate>
        <Field
          label="First name"
          autoComplete="given-name"
          maxLength={100}
          value={form.firstname}
          onChange={(e) => setForm({ ...form, firstname: e.target.value })}
          error={submit.fieldError('firstname')}
        />
        <Field
          label="Last name"
          autoComplete="family-name"
          maxLength={100}
          value={form.lastname}
          onChange={(e) => setForm({ ...form, lastname: e.target.value })}
          error={submit.fieldError('lastname')}
        />
        <div className="field">
          <label htmlFor={languageId}>Language</label>
          <select id={languageId} value={form.language} onChange={(e) => setForm({ ...form, language: e.target.value })}>
            {LANGUAGES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
            {LANGUAGES.some(([code]) => code === form.language) ? null : <option value={form.language}>{form.language}</option>}
          </select>
        </div>
        {formError ? <Notice kind="error">{formError}</Notice> : null}
        {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
        <SubmitButton busy={submit.busy}>Save</SubmitButton>
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
    return `We sent a link to ${pendingEmail}. Your account moves there when you open it.`;
  });
  const formError = submit.formLevel(['email', 'password']);
  return (
    <section className="card" aria-labelledby="email-heading">
      <h2 id="email-heading">E-mail address</h2>
      <p>
        Your address is <strong>{user.email}</strong>{' '}
        <span className={user.emailVerified ? 'tag tag--ok' : 'tag tag--warn'}>
          {user.emailVerified ? 'verified' : 'not verified'}
        </span>
      </p>
      <form onSubmit={submit.onSubmit} noValidate>
        <Field
          label="New e-mail address"
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
        <SubmitButton busy={submit.busy}>Change e-mail address</SubmitButton>
      </form>
    </section>
  );
}

/** The profile: picture, name, language and e-mail address; the way to delete the account. */
export function ProfilePage() {
  const user = useUser();
  return (
    <>
      <h1 tabIndex={-1}>Hello {user.firstname || user.email}</h1>
      <AvatarEditor />
      <NameForm />
      <EmailForm />
      <section className="card card--danger" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete account</h2>
        <p>Remove your account and everything stored with it.</p>
        <Link href={ACCOUNT_PAGES.deleteAccount} className="button button--danger">
          Delete my account…
        </Link>
      </section>
    </>
  );
}
