import type { cloudOperations, OperationResult } from '@hearth/contract';
import { useEffect, useState } from 'react';
import { useAccount } from '../../app/account';
import { strings } from '../../app/strings';

type Strength = OperationResult<typeof cloudOperations.cloud.checkPasswordStrength>;

/**
 * How hard the password being typed is to guess, as the cloud judges it (the same estimate and list of common
 * passwords it refuses by), asked a moment after typing stops.
 */
export function StrengthMeter({ password, userInputs }: { password: string; userInputs: readonly string[] }) {
  const { cloud } = useAccount();
  const [strength, setStrength] = useState<Strength | null>(null);
  const inputs = userInputs.filter(Boolean).join('\n');
  useEffect(() => {
    if (!password) {
      setStrength(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      cloud.services.cloud
        .checkPasswordStrength({ password, userInputs: inputs ? inputs.split('\n') : [] })
        .then((answer) => current && setStrength(answer))
        .catch(() => current && setStrength(null));
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [cloud, password, inputs]);
  if (!strength) return null;
  return (
    <div className="strength" data-score={strength.score}>
      <div className="strength__bar" aria-hidden="true">
        <span style={{ width: `${((strength.score + 1) / 5) * 100}%` }} />
      </div>
      <p className="strength__text" aria-live="polite">
        {strings.signUp.strengthLine(strings.signUp.strength(strength.score), strength.acceptable)} {strength.warning}
      </p>
    </div>
  );
}
