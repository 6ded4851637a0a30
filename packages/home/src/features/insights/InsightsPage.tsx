import type { Manager } from '@hearth/client/browser';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { format, strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { useHub, useLiveItems } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import type { Entries, Log, Resolution } from './model';

// The charting library is loaded on demand: the home's first paint never waits for it.
const Chart = lazy(() => import('./Chart'));

const t = strings.insights;

/** A short summary of what the chart shows, for screen readers and as its caption. */
function summary(log: Log, entries: Entries, resolution: Resolution): string {
  const numbers = entries.values.map((entry) => entry.v).filter((v): v is number => typeof v === 'number');
  const unit = log.units ? ` ${log.units}` : '';
  const fmt = (n: number) => `${format.number(n, { maximumFractionDigits: log.decimals ?? 1 })}${unit}`;
  if (numbers.length === 0) return t.noEntries(strings.values.resolutions[resolution]);
  return t.summary(
    log.title,
    strings.values.resolutions[resolution],
    fmt(Math.min(...numbers)),
    fmt(Math.max(...numbers)),
    numbers.length,
  );
}

function LogChart({ log }: { log: Log }) {
  const { hub } = useHub();
  const [resolution, setResolution] = useState<Resolution>('last24Hours');
  const entries = useAsync(
    async () => (await hub.insights.getLogEntries({ uri: log.ownerUri, id: log.ownerId, resolution })) as unknown as Entries,
    [hub, log.id, resolution],
  );
  return (
    <section className="card" aria-labelledby="chart-title">
      <h2 id="chart-title">{log.ownerName ? `${log.ownerName}: ${log.title}` : log.title}</h2>
      <label className="field">
        <span>{t.resolution}</span>
        <select value={resolution} onChange={(event) => setResolution(event.target.value as Resolution)}>
          {Object.entries(strings.values.resolutions).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {entries.state === 'loading' ? <Loading /> : null}
      {entries.state === 'failed' ? <Failed error={entries.error} /> : null}
      {entries.state === 'ready' ? (
        <>
          <p className="muted" data-testid="chart-summary">
            {summary(log, entries.data, resolution)}
          </p>
          <Suspense fallback={<Loading />}>
            <Chart log={log} entries={entries.data} label={summary(log, entries.data, resolution)} />
          </Suspense>
          <p className="muted">{t.zoomHint}</p>
        </>
      ) : null}
    </section>
  );
}

/** Every log the hub keeps, by device (and the hub's own), and the chart of the chosen one. */
export function InsightsPage() {
  const { hub } = useHub();
  const search = useSearch();
  const [chosen, setChosen] = useState<string | null>(new URLSearchParams(search).get('log'));
  const devices = useLiveItems<{ id: string; name: string }>(hub.manager('devices') as Manager, 'device');
  const logs = useAsync(async () => Object.values((await hub.insights.getLogs()) as unknown as Record<string, Log>), [hub]);
  useEffect(() => {
    const wanted = new URLSearchParams(search).get('log');
    if (wanted) setChosen(wanted);
  }, [search]);
  if (logs.state === 'failed') return <Failed error={logs.error} title={t.title} />;
  if (logs.state === 'loading' || devices.state === 'loading') return <Loading title={t.title} />;
  const names = new Map(
    devices.state === 'ready' ? devices.items.map((device) => [`homey:device:${device.id}`, device.name]) : [],
  );
  const groups = new Map<string, Log[]>();
  for (const log of logs.data) {
    const owner = names.get(log.ownerUri) ?? t.ownerOther(log.ownerUri);
    groups.set(owner, [...(groups.get(owner) ?? []), { ...log, ownerName: names.get(log.ownerUri) }]);
  }
  const selected = logs.data.find((log) => log.id === chosen);
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      {selected ? (
        <LogChart key={selected.id} log={{ ...selected, ownerName: names.get(selected.ownerUri) }} />
      ) : (
        <p>{t.choose}</p>
      )}
      {[...groups.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([owner, list]) => (
          <section key={owner} aria-label={owner}>
            <h2>{owner}</h2>
            <ul className="chips">
              {list.map((log) => (
                <li key={log.id}>
                  <button
                    type="button"
                    className="button button--quiet button--small"
                    aria-pressed={log.id === chosen}
                    onClick={() => {
                      setChosen(log.id);
                      window.scrollTo(0, 0);
                    }}
                  >
                    {log.title}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </>
  );
}
