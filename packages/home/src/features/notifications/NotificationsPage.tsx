import type { Manager } from '@hearth/client/browser';
import { Fragment, useState } from 'react';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { messageOf } from '../../lib/errors';
import { useHub, useLiveItems } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';
import { byDay, type Notification, timeOf } from './model';

const t = strings.notifications;

/** An excerpt's `**marked**` parts (device and app names, by the ecosystem's convention) in bold. */
function Excerpt({ text }: { text: string }) {
  return (
    <>
      {text.split('**').map((part, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
        index % 2 === 1 ? <strong key={index}>{part}</strong> : <Fragment key={index}>{part}</Fragment>,
      )}
    </>
  );
}

/** The home's notifications as a timeline by day, newest first, live: deleted one by one or cleared. */
export function NotificationsPage() {
  const { hub } = useHub();
  const notify = useNotify();
  const live = useLiveItems<Notification>(hub.manager('notifications') as Manager, 'notification');
  const owners = useAsync(async () => {
    const answer = (await hub.notifications.getOwners()) as Record<string, { uri: string; name: string }>;
    return new Map(Object.values(answer).map((owner) => [owner.uri, owner.name]));
  }, [hub]);
  // Deleted ones leave at once; they come back with the hub's reason if it refuses.
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  if (live.state === 'failed') return <Failed error={live.error} title={t.title} />;
  if (live.state === 'loading') return <Loading title={t.title} />;

  const shown = live.items.filter((item) => !hidden.has(item.id));
  const hide = (ids: string[], gone: boolean) =>
    setHidden((current) => {
      const next = new Set(current);
      for (const id of ids) gone ? next.add(id) : next.delete(id);
      return next;
    });
  async function remove(item: Notification) {
    hide([item.id], true);
    try {
      await hub.notifications.deleteNotification({ id: item.id });
    } catch (failure) {
      hide([item.id], false);
      notify('error', t.notDeleted(messageOf(failure)));
    }
  }
  async function clear() {
    const ids = shown.map((item) => item.id);
    hide(ids, true);
    setConfirming(false);
    try {
      await hub.notifications.deleteNotifications({});
      notify('info', t.cleared);
    } catch (failure) {
      hide(ids, false);
      notify('error', t.notCleared(messageOf(failure)));
    }
  }
  const ownerName = (uri: string) => (owners.state === 'ready' ? owners.data.get(uri) : undefined) ?? t.hub;

  return (
    <>
      <h1 tabIndex={-1}>{t.title}</h1>
      {shown.length === 0 ? (
        <p>{t.empty}</p>
      ) : (
        <div className="actions">
          {confirming ? (
            <>
              <button type="button" className="button button--danger" onClick={() => void clear()}>
                {t.clearConfirm(shown.length)}
              </button>
              <button type="button" className="button button--quiet" onClick={() => setConfirming(false)}>
                {t.keep}
              </button>
            </>
          ) : (
            <button type="button" className="button button--quiet" onClick={() => setConfirming(true)}>
              {t.clear}
            </button>
          )}
        </div>
      )}
      {byDay(shown).map(({ day, items }, index) => (
        <section key={day} aria-labelledby={`day-${index}`} className="group">
          <h2 id={`day-${index}`}>{day}</h2>
          <ol className="rows timeline">
            {items.map((item) => (
              <li key={item.id} className={`row notification notification--${item.priority.toLowerCase()}`}>
                <span className="row__main">
                  <span>
                    {item.priority !== 'INFO' ? <span className="badge">{t.priority[item.priority]}</span> : null}
                    <Excerpt text={item.excerpt} />
                  </span>
                  <span className="muted">
                    <time dateTime={item.dateCreated}>{timeOf(item.dateCreated)}</time> · {ownerName(item.ownerUri)}
                  </span>
                </span>
                <span className="row__actions">
                  <button
                    type="button"
                    className="button button--small button--quiet"
                    aria-label={t.deleteName(item.excerpt.replaceAll('**', ''))}
                    onClick={() => void remove(item)}
                  >
                    {t.delete}
                  </button>
                </span>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </>
  );
}
