import { localeOf } from '@hearth/i18n';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { i18n, strings } from '../../app/strings';
import { Failed, Loading } from '../../components/Status';
import { useHub } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import {
  type CalendarDay,
  formatKWh,
  formatMoney,
  formatWatts,
  type LiveReport,
  loadReport,
  type Period,
  periodKey,
  periodLabel,
  shift,
  todayIn,
} from './model';

const t = strings.energy;
const EnergyChart = lazy(() => import('./EnergyChart'));

/**
 * Live power, read again whenever a device's state changes (the devices manager's realtime events, at most once a
 * second), so the figures follow the home without polling.
 */
function useLiveReport(): { report: LiveReport | null; error: unknown } {
  const { hub } = useHub();
  const [live, setLive] = useState<{ report: LiveReport | null; error: unknown }>({ report: null, error: null });
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const read = () =>
      hub.energy.getLiveReport({}).then(
        (report) => alive && setLive({ report: report as LiveReport, error: null }),
        (error: unknown) => alive && setLive((current) => ({ ...current, error })),
      );
    const soon = () => {
      timer ??= setTimeout(() => {
        timer = null;
        void read();
      }, 1000);
    };
    const devices = hub.manager('devices');
    devices?.on('device.update', soon);
    devices?.on('connect', soon);
    void devices?.connect().catch(() => {});
    void read();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
      devices?.off('device.update', soon);
      devices?.off('connect', soon);
    };
  }, [hub]);
  return live;
}

/** One device or meter and its figure, as a row. */
function Figure({ name, value, children }: { name: string; value: string; children?: ReactNode }) {
  return (
    <li className="row">
      <span className="row__main">
        <span>{name}</span>
        <span className="muted">{value}</span>
      </span>
      {children}
    </li>
  );
}

function Live() {
  const { report, error } = useLiveReport();
  if (!report) return error ? <Failed error={error} /> : <Loading />;
  const items = [...report.items].sort((a, b) => b.values.W - a.values.W);
  const top = items[0]?.values.W || 1;
  // One figure for now: a meter sees the whole home (devices that report nothing too), so it wins over the sum.
  const meters = report.cumulative.items;
  const nowW = meters.length > 0 ? report.cumulative.W : report.W;
  return (
    <>
      <p className="figure" aria-live="polite">
        <strong>{t.using(formatWatts(nowW))}</strong>
        <span className="muted"> · {t.costPerHour(formatMoney((nowW / 1000) * report.kWhCost, report.currency))}</span>
      </p>
      <p className="muted" data-testid="energy-now-source">
        {meters.length > 0 ? t.fromMeter(meters.map((meter) => meter.name).join(', ')) : t.fromDevices}
      </p>
      {meters.length > 0 ? <h3>{t.devices}</h3> : null}
      {items.length === 0 ? <p className="muted">{t.noLive}</p> : null}
      <ul className="rows">
        {items.map((item) => (
          <Figure
            key={item.id}
            name={item.name}
            value={`${formatWatts(item.values.W)}${item.approximated ? ` (${t.approximated})` : ''}`}
          >
            <span className="meter" aria-hidden="true">
              <span style={{ width: `${Math.round((item.values.W / top) * 100)}%` }} />
            </span>
          </Figure>
        ))}
      </ul>
      {report.cumulative.items.length > 0 ? (
        <>
          <h3>{t.meters}</h3>
          <ul className="rows">
            {report.cumulative.items.map((meter) => (
              <Figure
                key={meter.id}
                name={meter.name}
                value={`${formatWatts(meter.values.W)} · ${formatKWh(meter.values.kWh)}`}
              />
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

/**
 * The hub's time zone (its days are the reports' days): `pending` until the hub answers, then its zone, or
 * undefined (the browser's, to `Intl`) when this session may not read it.
 */
function useHubTimeZone(): string | undefined | 'pending' {
  const { hub } = useHub();
  const [zone, setZone] = useState<string | undefined | 'pending'>('pending');
  useEffect(() => {
    let alive = true;
    setZone('pending');
    hub.i18n.getOptionTimezone().then(
      (option) => alive && setZone(option.value),
      () => alive && setZone(undefined),
    );
    return () => {
      alive = false;
    };
  }, [hub]);
  return zone;
}

/** The reports, once the hub's time zone is known: asked for before, "today" could be the browser's and load twice. */
function Reports() {
  const zone = useHubTimeZone();
  return zone === 'pending' ? <Loading /> : <ReportsInZone zone={zone} />;
}

function ReportsInZone({ zone }: { zone: string | undefined }) {
  const { hub } = useHub();
  const [period, setPeriod] = useState<Period>('week');
  // The day the person moved to, or (until they move) today in the hub's time zone.
  const [chosen, setChosen] = useState<CalendarDay | null>(null);
  const today = todayIn(zone);
  const date = chosen ?? today;
  const energy = hub.energy as unknown as Parameters<typeof loadReport>[0];
  const report = useAsync(() => loadReport(energy, period, date), [hub, period, periodKey(period, date)]);
  const later = periodKey(period, shift(period, date, 1)) <= periodKey(period, today);
  return (
    <>
      <div className="actions">
        <div className="field">
          <label htmlFor="energy-period">{t.period}</label>
          <select id="energy-period" value={period} onChange={(event) => setPeriod(event.target.value as Period)}>
            {(['day', 'week', 'month', 'year'] as const).map((choice) => (
              <option key={choice} value={choice}>
                {t.periods[choice]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="actions period-nav">
        <button type="button" className="button button--quiet" onClick={() => setChosen(shift(period, date, -1))}>
          {t.previous}
        </button>
        <strong aria-live="polite">{periodLabel(period, date, localeOf(i18n))}</strong>
        <button
          type="button"
          className="button button--quiet"
          disabled={!later}
          onClick={() => setChosen(shift(period, date, 1))}
        >
          {t.next}
        </button>
      </div>
      {report.state === 'loading' ? <Loading /> : null}
      {report.state === 'failed' ? <Failed error={report.error} /> : null}
      {report.state === 'ready' ? (
        report.data.kWh === 0 && report.data.items.length === 0 ? (
          <p className="muted">{t.noReport}</p>
        ) : (
          <>
            <p className="figure">
              <strong>{t.total(formatKWh(report.data.kWh), formatMoney(report.data.cost, report.data.currency))}</strong>
            </p>
            {report.data.parts && report.data.parts.length > 1 ? (
              <Suspense fallback={<Loading />}>
                <EnergyChart
                  parts={report.data.parts}
                  period={period}
                  series={t.chartSeries}
                  part={t.chartPart[period]}
                  label={t.chart(t.periods[period], formatKWh(report.data.kWh))}
                />
              </Suspense>
            ) : null}
            <h3>{t.byDevice}</h3>
            <ul className="rows">
              {[...report.data.items]
                .sort((a, b) => b.kWh - a.kWh)
                .map((item) => (
                  <Figure key={item.id} name={item.name} value={formatKWh(item.kWh)} />
                ))}
            </ul>
          </>
        )
      ) : null}
    </>
  );
}

/** The home's energy: what it uses now, live, and what it used per day, week, month or year. */
export function EnergyPage() {
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <section className="card section" aria-labelledby="energy-now">
        <h2 id="energy-now">{t.now}</h2>
        <Live />
      </section>
      <section className="card section" aria-labelledby="energy-report">
        <h2 id="energy-report">{t.report}</h2>
        <Reports />
      </section>
    </>
  );
}
