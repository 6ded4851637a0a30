import type { hubOperations, OperationResult } from '@hearth/contract';
import { formatClaimCode } from '@hearth/contract/provider';
import { type ReactNode, useEffect, useState } from 'react';
import { format, strings } from '../../app/strings';
import { hubClaim } from '../../lib/connection';
import './claim.css';

export type HubClaim = OperationResult<typeof hubOperations.cloud.getClaim>;

const t = strings.claim;
/** How often the page asks again: it learns of a new code, and of being claimed, without a reload. */
const POLL_MS = 5_000;

/**
 * Before anyone can sign in: when nobody owns the hub yet, the page shows the short code (and a QR of the account
 * page that takes it) instead of the sign-in, and turns into the sign-in once the hub is claimed. A hub with an
 * owner, or without a cloud, goes straight to `signIn`.
 */
export function ClaimOrSignIn({ signIn }: { signIn: ReactNode }) {
  const [claim, setClaim] = useState<HubClaim | null | 'loading'>('loading');
  const [wasUnclaimed, setWasUnclaimed] = useState(false);

  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      // An unreadable answer is not a reason to hide the sign-in: it shows, as for a claimed hub.
      const answer = await hubClaim().catch(() => null);
      if (!alive) return;
      setClaim(answer);
      if (answer?.state === 'unclaimed') setWasUnclaimed(true);
      if (answer?.state === 'unclaimed' || answer?.state === 'unavailable') timer = setTimeout(() => void ask(), POLL_MS);
    };
    void ask();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, []);

  if (claim === 'loading') return null;
  if (claim?.state === 'unclaimed') return <ClaimCode claim={claim} />;
  if (claim?.state === 'unavailable')
    return (
      <section className="card narrow">
        <h1 tabIndex={-1}>{t.title}</h1>
        <p role="status">{t.unavailable}</p>
      </section>
    );
  return (
    <>
      {wasUnclaimed ? (
        <p className="claim__done" role="status">
          {t.claimed}
        </p>
      ) : null}
      {signIn}
    </>
  );
}

function ClaimCode({ claim }: { claim: HubClaim }) {
  if (!claim.code)
    return (
      <section className="card narrow" aria-labelledby="claim-title">
        <h1 id="claim-title" tabIndex={-1}>
          {t.title}
        </h1>
        <p>{t.remote}</p>
      </section>
    );
  const code = formatClaimCode(claim.code ?? '');
  const until = claim.expiresAt ? format.time(claim.expiresAt, { hour: '2-digit', minute: '2-digit' }) : '';
  return (
    <section className="card narrow claim" aria-labelledby="claim-title">
      <h1 id="claim-title" tabIndex={-1}>
        {t.title}
      </h1>
      <p className="muted">{t.intro}</p>
      <p className="claim__code-label">{t.codeLabel}</p>
      <p className="claim__code" data-testid="claim-code" aria-live="polite">
        {code}
      </p>
      {claim.claimQr ? <img className="claim__qr" src={claim.claimQr} alt={t.qrAlt} width={200} height={200} /> : null}
      <p className="muted">{t.expires(until)}</p>
      {claim.claimUrl ? (
        <a className="button" href={claim.claimUrl}>
          {t.openAccount}
        </a>
      ) : null}
    </section>
  );
}
