import type { Manager } from '@hearth/client/browser';
import { HOME_PAGES } from '@hearth/contract/provider';
import { useState } from 'react';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { useHub, useLiveItems } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import { PairFlow } from './PairFlow';
import type { PairView } from './usePairSession';

const t = strings.pairing;

export interface PairableDriver {
  id: string;
  name: string;
  ownerName: string;
  icon?: string;
  pair: PairView[];
}

interface Zone {
  id: string;
  name: string;
  parent: string | null;
}

/** Add a device: choose the zone and one of the apps' drivers, then go through that driver's pairing views. */
export function AddDevicePage() {
  const { hub } = useHub();
  const drivers = useAsync(async () => Object.values(await hub.drivers.getDrivers()) as unknown as PairableDriver[], [hub]);
  const zones = useLiveItems<Zone>(hub.manager('zones') as Manager, 'zone');
  const [chosen, setChosen] = useState<PairableDriver | null>(null);
  const [zoneId, setZoneId] = useState<string>('');
  if (drivers.state === 'failed') return <Failed error={drivers.error} title={t.title} />;
  if (drivers.state === 'loading' || zones.state !== 'ready') return <Loading title={t.title} />;
  if (chosen) return <PairFlow driver={chosen} zoneId={zoneId || null} onRestart={() => setChosen(null)} key={chosen.id} />;

  const byApp = new Map<string, PairableDriver[]>();
  for (const driver of drivers.data.filter((d) => d.pair.length > 0))
    byApp.set(driver.ownerName, [...(byApp.get(driver.ownerName) ?? []), driver]);
  const apps = [...byApp.entries()].sort(([a], [b]) => a.localeCompare(b));
  const zoneList = [...zones.items].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <p className="crumb">
        <Link href={HOME_PAGES.home}>{t.back}</Link>
      </p>
      <h1 tabIndex={-1}>{t.title}</h1>
      <label className="field">
        <span>{t.zone}</span>
        <select value={zoneId} onChange={(event) => setZoneId(event.target.value)}>
          <option value="">{t.defaultZone}</option>
          {zoneList.map((zone) => (
            <option key={zone.id} value={zone.id}>
              {zone.name}
            </option>
          ))}
        </select>
      </label>
      <p className="muted">{t.chooseDriver}</p>
      {apps.length === 0 ? <p>{t.noDrivers}</p> : null}
      {apps.map(([app, list]) => (
        <section key={app} aria-label={app}>
          <h2>{app}</h2>
          <ul className="rows">
            {list
              .sort((a, b) => a.name.localeCompare(b.name))
              .map((driver) => (
                <li key={driver.id} className="row">
                  <span className="row__main">
                    {driver.icon ? <img src={driver.icon} alt="" width={32} height={32} className="app-icon" /> : null}
                    <strong>{driver.name}</strong>
                  </span>
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={t.addDriver(driver.name, app)}
                    onClick={() => setChosen(driver)}
                  >
                    {t.add}
                  </button>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}
