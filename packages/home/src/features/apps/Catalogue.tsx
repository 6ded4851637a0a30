import { CloudAPI } from '@hearth/client/browser';
import { type FormEvent, useState } from 'react';
import { strings } from '../../app/strings';
import { useNotify } from '../../components/Notices';
import { Failed, Loading } from '../../components/Status';
import { linkedCloud } from '../../lib/cloud';
import { messageOf } from '../../lib/errors';
import { useHub } from '../../lib/hub';
import { useAsync } from '../../lib/useLoad';

const t = strings.apps;

/** An app as the cloud's catalogue lists it (the parts shown here). */
interface CatalogueApp {
  id: string;
  name: string | Record<string, string>;
  description?: string | Record<string, string>;
  icon: string;
  author: { name: string; verified: boolean };
  liveVersion: string | null;
}

const english = (text: string | Record<string, string> | undefined): string =>
  typeof text === 'string' ? text : (text?.en ?? Object.values(text ?? {})[0] ?? '');

/** The catalogue's calls are public: a client of its own that keeps no token (the hub's session is the app's only one). */
const catalogueAt = (url: string) => new CloudAPI({ baseUrl: url, store: { get: () => ({}), set: () => {} } });

async function browse(query: string): Promise<{ cloud: string | null; apps: CatalogueApp[] }> {
  const cloud = await linkedCloud();
  if (!cloud) return { cloud, apps: [] };
  const answer = (await catalogueAt(cloud).services.apps.browseApps({
    ...(query ? { query } : {}),
    language: 'en',
    limit: 48,
  })) as unknown as { apps: CatalogueApp[] };
  return { cloud, apps: answer.apps };
}

/** One app of the catalogue: what it is, who makes it, and Install (or that the hub has it). */
function CatalogueRow({ app, installed }: { app: CatalogueApp; installed: boolean }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const name = english(app.name);
  async function install() {
    setBusy(true);
    try {
      await hub.apps.installFromAppStore({ id: app.id });
      notify('info', t.installed(name));
    } catch (error) {
      notify('error', t.refused(name, messageOf(error)));
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="row" data-catalogue-app={app.id}>
      <span className="row__main">
        <img src={app.icon} alt="" width={32} height={32} className="app-icon" />
        <span className="app-text">
          <strong>{name}</strong> {app.liveVersion ? <span className="muted">{t.version(app.liveVersion)}</span> : null}
          <br />
          <span className="muted">{t.by(app.author.name, app.author.verified)}</span>
          {app.description ? (
            <>
              <br />
              <span>{english(app.description)}</span>
            </>
          ) : null}
        </span>
      </span>
      <span className="row__actions">
        {installed ? (
          <span className="badge">{t.isInstalled}</span>
        ) : (
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => void install()}
            aria-label={t.installName(name)}
          >
            {busy ? t.installing : t.install}
          </button>
        )}
      </span>
    </li>
  );
}

/**
 * The cloud's app catalogue, searched by words, each app installable on this hub with one tap. The hub installs
 * from the catalogue itself (`installFromAppStore`); the page only reads the catalogue, which needs no sign-in.
 */
export function Catalogue({ installed }: { installed: ReadonlySet<string> }) {
  const [query, setQuery] = useState('');
  const [version, setVersion] = useState(0);
  const found = useAsync(() => browse(query), [query, version]);
  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setQuery(String(new FormData(event.currentTarget).get('query') ?? '').trim());
  }
  let body: React.ReactNode;
  if (found.state === 'loading') body = <Loading />;
  else if (found.state === 'failed') body = <Failed error={found.error} retry={() => setVersion((v) => v + 1)} />;
  else if (!found.data.cloud) body = <p className="muted">{t.noCloud}</p>;
  else if (found.data.apps.length === 0) body = <p className="muted">{t.nothingFound}</p>;
  else
    body = (
      <ul className="rows" aria-label={t.catalogue}>
        {found.data.apps.map((app) => (
          <CatalogueRow key={app.id} app={app} installed={installed.has(app.id)} />
        ))}
      </ul>
    );
  return (
    <section aria-labelledby="catalogue">
      <h2 id="catalogue">{t.catalogue}</h2>
      <search>
        <form className="inline-form" onSubmit={search}>
          <div className="field">
            <label htmlFor="catalogue-query">{t.search}</label>
            <input id="catalogue-query" name="query" type="search" defaultValue={query} />
          </div>
          <button type="submit" className="button">
            {t.searchButton}
          </button>
        </form>
      </search>
      {body}
    </section>
  );
}
