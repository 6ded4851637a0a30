import type { Manager } from '@hearth/client/browser';
import { HOME_PAGES } from '@hearth/contract/provider';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { useHub, useLiveItems } from '../../lib/hub';
import { type Capability, type Device, formatValue } from './capabilities';
import { DeviceManage } from './DeviceManage';
import { DeviceSettings } from './DeviceSettings';
import { QuickControl } from './DeviceTile';
import { useFavourites } from './useFavourites';
import { isZwaveDevice, ZwaveFailedNode } from './ZwaveFailedNode';

const CONTROLLED = new Set(['onoff', 'locked', 'button', 'target_temperature', 'dim', 'windowcoverings_state']);

/** One device: every capability live, each settable one with its control. */
export function DevicePage({ id }: { id: string }) {
  const { hub } = useHub();
  const devices = useLiveItems<Device>(hub.manager('devices') as Manager, 'device');
  const favourites = useFavourites();
  if (devices.state === 'failed') return <Failed error={devices.error} />;
  if (devices.state === 'loading') return <Loading />;
  const device = devices.items.find((item) => item.id === id);
  if (!device)
    return (
      <>
        <h1 tabIndex={-1}>{strings.errors.notFound}</h1>
        <Link href="/">{strings.errors.goHome}</Link>
      </>
    );
  const caps = Object.values(device.capabilitiesObj ?? {}) as Capability[];
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{device.name}</h1>
        <button
          type="button"
          className="button button--small button--quiet"
          aria-pressed={favourites.ids.includes(device.id)}
          aria-label={strings.home.favouriteName(device.name)}
          onClick={() => void favourites.toggle(device.id, device.name)}
        >
          {favourites.ids.includes(device.id) ? '★ ' : '☆ '}
          {strings.home.favourite}
        </button>
      </div>
      {device.available ? null : (
        <p className="tile__problem">
          <strong>{strings.home.unavailable}</strong>
          {device.unavailableMessage ? `: ${device.unavailableMessage}` : null}
        </p>
      )}
      {!device.available && isZwaveDevice(device) ? <ZwaveFailedNode device={device} /> : null}
      <ul className="capabilities">
        {caps.map((cap) => (
          <li key={cap.id} className="capability">
            <span className="capability__title">
              {cap.title}
              {cap.getable && (cap.type === 'number' || cap.type === 'boolean') ? (
                <>
                  {' '}
                  <Link
                    href={`${HOME_PAGES.insights}?log=${encodeURIComponent(`homey:device:${device.id}:${cap.id}`)}`}
                    className="chart-link"
                    aria-label={`${cap.title} ${strings.insights.chart}`}
                  >
                    {strings.insights.chart}
                  </Link>
                </>
              ) : null}
            </span>
            {cap.setable && device.available && CONTROLLED.has(cap.id) ? (
              <QuickControl device={device} cap={cap} />
            ) : (
              <span data-capability={cap.id}>{formatValue(cap)}</span>
            )}
          </li>
        ))}
      </ul>
      <DeviceSettings device={device} />
      <DeviceManage device={device} />
    </>
  );
}
