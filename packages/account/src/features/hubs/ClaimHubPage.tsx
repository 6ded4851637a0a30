import { ACCOUNT_PAGES, normaliseClaimCode } from '@hearth/contract/provider';
import { useState } from 'react';
import { Link } from 'wouter';
import { useAccount, useUser } from '../../app/account';
import { strings } from '../../app/strings';
import { Field, Notice, SubmitButton, useSubmit } from '../../components/forms';
import { OpenHubLink } from './OpenHubPage';

/** The code the hub's QR code carries: in the fragment (`#code=…`), which never reaches a server log. */
const codeInAddress = (): string => new URLSearchParams(window.location.hash.replace(/^#/, '')).get('code') ?? '';

/** Not a short code and too short to be a hub's full claim token: said here rather than sent. */
const LONG_TOKEN_MIN = 20;

/**
 * Claims a hub with the code it shows on its web page (or its full claim token); afterwards offers to open it. With
 * `initialCode` (from the QR's link) the code is filled in, for the person to confirm.
 */
export function ClaimForm({ initialCode = '', title = strings.hubs.claimTitle }: { initialCode?: string; title?: string }) {
  const { cloud, reloadUser } = useAccount();
  const user = useUser();
  const [code, setCode] = useState(initialCode);
  const [claimed, setClaimed] = useState<{ id: string; name: string } | null>(null);
  const [typo, setTypo] = useState<string | null>(null);
  const submit = useSubmit(async () => {
    setTypo(null);
    const typed = code.trim();
    if (!normaliseClaimCode(typed) && typed.length < LONG_TOKEN_MIN) {
      setTypo(strings.hubs.claimTypo);
      return;
    }
    const hub = await cloud.services.cloud.claimHomey({ code: typed });
    setCode('');
    await reloadUser();
    setClaimed({ id: hub._id, name: hub.name });
    return strings.hubs.claimed(hub.name);
  });
  return (
    <section className="card" aria-labelledby="claim-heading">
      <h2 id="claim-heading">{title}</h2>
      <p>{strings.hubs.claimIntro}</p>
      <form onSubmit={submit.onSubmit} noValidate>
        <Field
          label={strings.hubs.claimCode}
          placeholder="ABCD-EFGH"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={typo ?? submit.error?.message ?? null}
          disabled={!user.emailVerified}
          hint={user.emailVerified ? undefined : strings.hubs.verifyFirst}
        />
        {submit.done ? <Notice kind="success">{submit.done}</Notice> : null}
        {claimed ? (
          <div className="actions">
            <OpenHubLink id={claimed.id} name={claimed.name} primary />
          </div>
        ) : (
          <SubmitButton busy={submit.busy}>{strings.hubs.claim}</SubmitButton>
        )}
      </form>
    </section>
  );
}

/** The page a hub's QR code (and claim link) opens: the claim form with the code filled in. */
export function ClaimHubPage() {
  const [initialCode] = useState(codeInAddress);
  return (
    <>
      <h1 tabIndex={-1}>{strings.hubs.claimTitle}</h1>
      <ClaimForm initialCode={initialCode} title={strings.hubs.claimCodeTitle} />
      <p>
        <Link href={ACCOUNT_PAGES.hubs}>{strings.hubs.yourHubs}</Link>
      </p>
    </>
  );
}
