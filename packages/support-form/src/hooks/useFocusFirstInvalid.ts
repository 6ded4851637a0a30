import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * After a refused submit, focus moves to the form's first invalid field (`aria-invalid="true"`), whose error it
 * names: a keyboard or screen-reader user lands where the problem is. Answers the form's ref and the function to
 * call on each refused submit.
 */
export function useFocusFirstInvalid() {
  const form = useRef<HTMLFormElement>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt > 0) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt]);
  const refused = useCallback(() => setAttempt((count) => count + 1), []);
  return { form, refused };
}
