import { useAccount, useUser } from '../../app/account';
import { Loading, Notice } from '../../components/forms';
import { useLoad } from '../../lib/useLoad';

const date = (iso: string | undefined) => (iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—');

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
  return (
    <>
      <h1 tabIndex={-1}>Devices &amp; orders</h1>
      <Section id="addresses-heading" title="Addresses">
        {addresses.state === 'loading' ? <Loading /> : null}
        {addresses.state === 'failed' ? <Notice kind="error">Your addresses could not be loaded.</Notice> : null}
        {addresses.state === 'ready' && addresses.data.length === 0 ? <p className="empty">No addresses saved.</p> : null}
        {addresses.state === 'ready' && addresses.data.length > 0 ? (
          <ul className="list" aria-label="Addresses">
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
      <Section id="phones-heading" title="Phones and tablets">
        {user.devices.length === 0 ? (
          <p className="empty">No phone or tablet is registered for notifications.</p>
        ) : (
          <ul className="list" aria-label="Phones and tablets">
            {user.devices.map((d) => (
              <li key={d._id} className="list__item">
                <span>
                  <strong>{d.name}</strong> · {d.platform}
                  {d.appVersion ? ` · app ${d.appVersion}` : ''}
                  <span className="meta"> · since {date(d.created)}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section id="orders-heading" title="Orders">
        {orders.state === 'loading' ? <Loading /> : null}
        {orders.state === 'failed' ? <Notice kind="error">Your orders could not be loaded.</Notice> : null}
        {orders.state === 'ready' && orders.data.length === 0 ? <p className="empty">No orders.</p> : null}
        {orders.state === 'ready' && orders.data.length > 0 ? (
          <ul className="list" aria-label="Orders">
            {orders.data.map((o) => (
              <li key={o._id} className="list__item">
                <span>
                  <strong>Order {o.number}</strong> · {o.status} ·{' '}
                  {new Intl.NumberFormat(undefined, { style: 'currency', currency: o.currency }).format(o.total)}
                  <span className="meta"> · {date(o.date)}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </Section>
      <Section id="subscriptions-heading" title="Subscriptions">
        {subscriptions.length === 0 ? (
          <p className="empty">No subscriptions.</p>
        ) : (
          <ul className="list" aria-label="Subscriptions">
            {subscriptions.map((s) => (
              <li key={s._id} className="list__item">
                <span>
                  <strong>{s.type.replace(/_/g, ' ')}</strong> · {s.status}
                  <span className="meta">
                    {' '}
                    · since {date(s.startedAt)}
                    {s.expiresAt ? `, until ${date(s.expiresAt)}` : ''}
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
