import { useState } from 'react';
import { strings } from '../../app/strings';
import { PasskeysSection } from './PasskeysSection';
import { PasswordForm } from './PasswordForm';
import { SessionsSection } from './SessionsSection';
import { TwoFactorSection } from './TwoFactorSection';

/** Password, two-factor sign-in, passkeys, sign-ins and authorised apps. */
export function SecurityPage() {
  // A password change ends other sign-ins (and may remove the passkeys): those lists are read again.
  const [generation, setGeneration] = useState(0);
  return (
    <>
      <h1 tabIndex={-1}>{strings.security.title}</h1>
      <PasswordForm onChanged={() => setGeneration((g) => g + 1)} />
      <TwoFactorSection />
      <PasskeysSection generation={generation} />
      <SessionsSection generation={generation} />
    </>
  );
}
