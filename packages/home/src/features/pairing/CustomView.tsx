import { useEffect, useRef } from 'react';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import type { ViewProps } from './PairFlow';

/** A call of the pairing client API (`/home/pair-client.js`) from an app's view, by message. */
interface BridgeCall {
  hearthPair: 1;
  id: number;
  call: 'emit' | 'showView' | 'nextView' | 'prevView' | 'done' | 'createDevice' | 'alert' | 'setTitle';
  args: unknown[];
}

const isCall = (data: unknown): data is BridgeCall =>
  Boolean(
    data && typeof data === 'object' && (data as BridgeCall).hearthPair === 1 && typeof (data as BridgeCall).call === 'string',
  );

/**
 * An app's own pairing view: its HTML, served by the hub, in a frame sandboxed to scripts and forms only (no
 * access to this page, its storage or the signed-in session). The view reaches the driver through messages this
 * page answers with the session's calls; the driver's emits are passed in.
 */
export function CustomView({ session, driver, view, emitted, next, prev, show, finish, setProgress }: ViewProps) {
  const { hub } = useHub();
  const notify = useNotify();
  const frame = useRef<HTMLIFrameElement>(null);
  const [, appId, driverId] = /^homey:app:([^:]+):(.+)$/.exec(driver.id) ?? [];

  useEffect(() => {
    const answer = (id: number, reply: { result?: unknown; error?: string }) =>
      frame.current?.contentWindow?.postMessage({ hearthPair: 1, id, ...reply }, '*');
    const onMessage = async (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || !isCall(event.data)) return;
      const { id, call, args } = event.data;
      try {
        let result: unknown = null;
        if (call === 'emit')
          result = await hub.drivers.emitPairingEvent({ id: session.id, event: String(args[0]), data: args[1] ?? {} });
        else if (call === 'createDevice') {
          const device = (await hub.drivers.createPairSessionDevice({ id: session.id, device: args[0] as never })) as {
            id: string;
            name: string;
          };
          setProgress((p) => ({ ...p, added: [...p.added, { id: device.id, name: device.name }] }));
          result = device;
        } else if (call === 'showView') show(String(args[0]));
        else if (call === 'nextView') next();
        else if (call === 'prevView') prev();
        else if (call === 'done') finish();
        else if (call === 'alert') notify('info', String(args[0]));
        answer(id, { result });
      } catch (error) {
        answer(id, { error: messageOf(error) });
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [hub, session.id, next, prev, show, finish, setProgress, notify]);

  useEffect(() => {
    if (emitted) frame.current?.contentWindow?.postMessage({ hearthPair: 1, event: emitted.event, data: emitted.data }, '*');
  }, [emitted]);

  return (
    <iframe
      ref={frame}
      className="pair-frame"
      title={strings.pairing.customView(driver.name)}
      sandbox="allow-scripts allow-forms"
      src={`/app/${encodeURIComponent(appId ?? '')}/drivers/${encodeURIComponent(driverId ?? '')}/pair/${encodeURIComponent(view.id)}.html`}
    />
  );
}
