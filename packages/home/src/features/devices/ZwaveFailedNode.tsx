import { strings } from '../../app/strings';
import { ConfirmCard } from '../../components/ConfirmCard';
import { useHub } from '../../lib/hub';
import type { Device } from './capabilities';
import { useDeviceRemoval } from './useDeviceRemoval';

const t = strings.device;

/** Whether a device is a Z-Wave node's (its data names the node), as the hub's Z-Wave devices keep it. */
export const isZwaveDevice = (device: Device) =>
  typeof (device.data as { zwave?: { nodeId?: unknown } } | undefined)?.zwave?.nodeId === 'number';

/**
 * For a Z-Wave device that does not answer: removing its node from the network (the hub pings it first and refuses
 * when it answers), after a second, explicit tap.
 */
export function ZwaveFailedNode({ device }: { device: Device }) {
  const { hub } = useHub();
  const { confirming, setConfirming, busy, remove } = useDeviceRemoval(device.name);

  return (
    <section aria-labelledby="zwave-failed" className="card danger">
      <h2 id="zwave-failed">{t.failedTitle}</h2>
      <p>{t.failedExplained}</p>
      {confirming ? (
        <ConfirmCard
          framed={false}
          id="zwave-failed-question"
          question={<p>{t.removeFailedQuestion(device.name)}</p>}
          confirm={t.removeFailedConfirm(device.name)}
          keep={t.keep}
          busy={busy}
          onConfirm={() => void remove(() => hub.zwave.removeFailedDevice({ deviceId: device.id }))}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
          {t.removeFailed}
        </button>
      )}
    </section>
  );
}
