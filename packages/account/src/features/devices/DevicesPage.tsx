import { useAccount, useUser } from '../../app/account';
import { format, strings } from '../../app/strings';
import { Loading, Notice } from '../../components/forms';
import { useLoad } from '../../lib/useLoad';

const date = (iso: string | undefined) => (iso ? format.date(iso) : '—');
const statusOf = (status: string) => (strings.devices.statuses as Record<string, string | undefined>)[status] ?? status;
/** An order's amount: the store counts in cents (the contract's StoreOrder). */
const amount = (cents: number, currency: string) => format.currency(cents / 100, currency);

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** Addresses, registered phones, orders and subscriptions: read here, changed where they are made. */
export function DevicesPage() {
  const { cloud } = useAccount();
  const user = useUser();
  const [addresses] = useLoad(() => cloud.services.cloud.getUserAddresses({ userId: user._id }), [cloud, user._id]);
  const [orders] = useLoad(() => cloud.services.store.getOrders(), [cloud]);
  const subscriptions = Object.values(user.subscriptions);
  const t = strings.devices;
  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      <Section id="addresses-heading" title={t.addresses}>
        {addresses.state === 'loading' ? <Loading /> : null}
        {addresses.state === 'failed' ? <Notice kind="error">{t.addressesFailed}</Notice> : null}
        {addresses.state === 'ready' && addresses.data.length === 0 ? <p className="empty">{t.noAddresses}</p> : null}
        {addresses.state === 'ready' && addresses.data.length > 0 ? (
          <ul className="list" aria-label={t.addresses}>
            {addresses.data.map((a) => (
              <li key={a._id} className="list__item">
                <address>
                  {[a.firstname, a.lastname].filter(Boolean).join(' ')}
                  <br />
                  {[a.street, a.number].filter(Boolean).join(' ')} {a.extra}
                  <br />
                  {[a.zipcode, a.city].filter(Boolean).join(' ')}
                  {a.state ? `, ${a.state}` : ''} {a.country}
                </address>
              </li>
            ))}
          </ul>
        ) : null}
      </Section>
      <Section id="phones-heading" title={t.phones}>
        {user.devices.length === 0 ? (
          <p className="empty">{t.noPhones}</p>
        ) : (
          <ul className="list" aria-label={t.phones}>
            {user.devices.map((d) => (
              <li key={d._id} className="list__item">
                <span>
                  <strong>{d.name}</strong> · {d.platform}
                  {d.appVersion ? t.app(d.appVersion) : ''}
                  <span className="meta">{t.since(date(d.created))}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section id="orders-heading" title={t.orders}>
        {orders.state === 'loading' ? <Loading /> : null}
        {orders.state === 'failed' ? <Notice kind="error">{t.ordersFailed}</Notice> : null}
        {orders.state === 'ready' && orders.data.length === 0 ? <p className="empty">{t.noOrders}</p> : null}
        {orders.state === 'ready' && orders.data.length > 0 ? (
          <ul className="list" aria-label={t.orders}>
            {orders.data.map((o) => (
              <li key={o._id} className="list__item">
                <span>
                  <strong>{t.order(String(o.number))}</strong> · {statusOf(o.status)} · {amount(o.total, o.currency)}
                  <span className="meta"> · {date(o.date)}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </Section>
      <Section id="subscriptions-heading" title={t.subscriptions}>
        {subscriptions.length === 0 ? (
          <p className="empty">{t.noSubscriptions}</p>
        ) : (
          <ul className="list" aria-label={t.subscriptions}>
            {subscriptions.map((s) => (
              <li key={s._id} className="list__item">
                <span>
                  <strong>{s.type.replace(/_/g, ' ')}</strong> · {statusOf(s.status)}
                  <span className="meta">
                    {t.since(date(s.startedAt))}
                    {s.expiresAt ? t.until(date(s.expiresAt)) : ''}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
