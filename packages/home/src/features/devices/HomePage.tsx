import type { Manager } from '@hearth/client/browser';
import { HOME_PAGES } from '@hearth/contract/provider';
import { Link } from 'wouter';
import { strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { useHub, useLiveItems } from '../../lib/hub';
import { type Zone, zonesInTreeOrder } from '../../lib/zones';
import type { Device } from './capabilities';
import { DeviceTile } from './DeviceTile';
import { useFavourites } from './useFavourites';

const t = strings.home;

/** Zones in tree order, each with its depth, keeping only zones that hold devices or lead to zones that do. */
export function zoneTree(zones: Zone[], devicesIn: (zoneId: string) => number): { zone: Zone; depth: number }[] {
  const ordered = zonesInTreeOrder(zones);
  const weight = new Map<string, number>();
  // Children come after their parent, so adding up from the end gives each zone its whole subtree's devices.
  for (const { zone } of [...ordered].reverse()) {
    const total = (weight.get(zone.id) ?? 0) + devicesIn(zone.id);
    weight.set(zone.id, total);
    if (zone.parent) weight.set(zone.parent, (weight.get(zone.parent) ?? 0) + total);
  }
  return ordered.filter(({ zone }) => (weight.get(zone.id) ?? 0) > 0);
}

/** The home: its zones as a tree, each with its devices as live tiles. */
export function HomePage() {
  const { hub } = useHub();
  const devices = useLiveItems<Device>(hub.manager('devices') as Manager, 'device');
  const zones = useLiveItems<Zone>(hub.manager('zones') as Manager, 'zone');
  const favourites = useFavourites();
  if (devices.state === 'failed') return <Failed error={devices.error} title={t.title} />;
  if (zones.state === 'failed') return <Failed error={zones.error} title={t.title} />;
  if (devices.state === 'loading' || zones.state === 'loading') return <Loading title={t.title} />;

  const byZone = new Map<string, Device[]>();
  for (const device of devices.items) byZone.set(device.zone, [...(byZone.get(device.zone) ?? []), device]);
  for (const list of byZone.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  const tree = zoneTree(zones.items, (id) => byZone.get(id)?.length ?? 0);
  const favourite = favourites.ids.flatMap((id) => devices.items.filter((device) => device.id === id));
  return (
    <>
      <div className="page-head">
        <h1 tabIndex={-1}>{t.title}</h1>
        <span className="row__actions">
          <Link href={HOME_PAGES.zones} className="button button--small button--quiet">
            {strings.zones.manage}
          </Link>
          <Link href={HOME_PAGES.addDevice} className="button button--small">
            {strings.pairing.addDevice}
          </Link>
        </span>
      </div>
      {devices.items.length === 0 ? <p>{t.empty}</p> : null}
      {favourite.length > 0 ? (
        <section className="zone" aria-labelledby="favourites">
          <h2 id="favourites" className="zone__name">
            {t.favourites}
          </h2>
          <ul className="tiles" aria-label={t.favouritesList(favourite.length)}>
            {favourite.map((device) => (
              <DeviceTile key={device.id} device={device} />
            ))}
          </ul>
        </section>
      ) : null}
      {tree.map(({ zone, depth }) => {
        const here = byZone.get(zone.id) ?? [];
        const Heading = `h${Math.min(2 + depth, 6)}` as 'h2';
        return (
          <section key={zone.id} className={`zone zone--depth-${Math.min(depth, 3)}`} aria-labelledby={`zone-${zone.id}`}>
            <Heading id={`zone-${zone.id}`} className="zone__name">
              {zone.name}
            </Heading>
            {here.length > 0 ? (
              <ul className="tiles" aria-label={t.devicesIn(zone.name, here.length)}>
                {here.map((device) => (
                  <DeviceTile key={device.id} device={device} />
                ))}
              </ul>
            ) : null}
          </section>
        );
      })}
    </>
  );
}
