import { HOME_PAGES } from '@hearth/contract/provider';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { messageOf } from '../../lib/errors';

/**
 * Removing a device after its confirmation: `remove(action)` runs the hub call, then says so and goes home; a
 * refusal is told and the question closes, the device staying where it was.
 */
export function useDeviceRemoval(name: string) {
  const notify = useNotify();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function remove(action: () => Promise<unknown>) {
    setBusy(true);
    try {
      await action();
      notify('info', strings.device.removed(name));
      navigate(HOME_PAGES.home);
    } catch (error) {
      notify('error', strings.device.notRemoved(name, messageOf(error)));
      setBusy(false);
      setConfirming(false);
    }
  }

  return { confirming, setConfirming, busy, setBusy, remove };
}
