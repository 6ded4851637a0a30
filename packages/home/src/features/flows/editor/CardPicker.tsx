import './picker.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { strings } from '../../../app/strings';
import type { CardDef, CardType } from './draft';
import { moveFocus } from './Field';

const t = strings.flowEditor.picker;

export type OwnerKind = 'device' | 'app' | 'hub';

/** Who offers a card, as a person reads it: the device's or app's name, or the hub's part. */
export interface Owner {
  kind: OwnerKind;
  name: string;
}

const KIND_ORDER: OwnerKind[] = ['device', 'app', 'hub'];
const KIND_TITLE = { device: 'devices', app: 'apps', hub: 'hub' } as const satisfies Record<OwnerKind, keyof typeof t>;

/** The words a search is matched against: a card's title and its owner's name, without case or accents. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * The card picker: a modal dialog listing the cards of one kind grouped by owner (devices, apps, the hub's
 * managers) with a search over titles and owners. Keyboard: the search field first, arrow down into the cards,
 * arrow keys through them, Enter picks, Escape closes.
 */
export function CardPicker({
  type,
  cards,
  ownerOf,
  onPick,
  onClose,
}: {
  type: CardType;
  cards: readonly CardDef[];
  ownerOf: (card: CardDef) => Owner;
  onPick: (card: CardDef) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // The dialog opens to its search (showModal alone would focus its first button, the close button).
    search.current?.focus();
  }, []);

  const groups = useMemo(() => {
    const words = fold(query).split(/\s+/).filter(Boolean);
    const byOwner = new Map<string, { owner: Owner; cards: CardDef[] }>();
    for (const card of cards) {
      const owner = ownerOf(card);
      const haystack = fold(`${card.title} ${owner.name}`);
      if (!words.every((word) => haystack.includes(word))) continue;
      const group = byOwner.get(card.ownerUri) ?? { owner, cards: [] };
      group.cards.push(card);
      byOwner.set(card.ownerUri, group);
    }
    return KIND_ORDER.map((kind) => ({
      kind,
      owners: [...byOwner.entries()]
        .filter(([, group]) => group.owner.kind === kind)
        .sort(([, a], [, b]) => a.owner.name.localeCompare(b.owner.name)),
    })).filter((kind) => kind.owners.length > 0);
  }, [cards, ownerOf, query]);
  const count = groups.reduce((sum, kind) => sum + kind.owners.reduce((n, [, group]) => n + group.cards.length, 0), 0);
  const title = t[type];
  const cardButtons = '.picker button[data-card]';

  return (
    <dialog
      ref={dialog}
      className="picker"
      aria-labelledby="picker-title"
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="picker__head">
        <h2 id="picker-title">{title}</h2>
        <button type="button" className="button button--quiet" onClick={onClose}>
          {t.close}
        </button>
      </div>
      <div className="field">
        <label htmlFor="picker-search">{t.search}</label>
        <input
          ref={search}
          id="picker-search"
          type="search"
          autoComplete="off"
          value={query}
          aria-describedby="picker-hint picker-count"
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              document.querySelector<HTMLElement>(cardButtons)?.focus();
            }
          }}
        />
        <span id="picker-hint" className="muted">
          {t.searchHint}
        </span>
        <span id="picker-count" className="muted" role="status">
          {count === 0 ? t.none : t.count(count)}
        </span>
      </div>
      <div className="picker__list">
        {groups.map((kind) => (
          <section key={kind.kind} aria-labelledby={`picker-kind-${kind.kind}`}>
            <h3 id={`picker-kind-${kind.kind}`} className="picker__kind">
              {t[KIND_TITLE[kind.kind]]}
            </h3>
            {kind.owners.map(([uri, group]) => (
              <div key={uri} className="picker__owner">
                <h4>{group.owner.name}</h4>
                <ul className="picker__cards">
                  {group.cards.map((card) => (
                    <li key={card.id}>
                      <button
                        type="button"
                        className="picker__card"
                        data-card={card.id}
                        aria-label={`${card.title}, ${group.owner.name}${card.deprecated ? ` (${t.deprecated})` : ''}`}
                        onKeyDown={(event) => moveFocus(event, cardButtons)}
                        onClick={() => onPick(card)}
                      >
                        <span>{card.title}</span>
                        {card.deprecated ? <span className="badge">{t.deprecated}</span> : null}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
        ))}
      </div>
    </dialog>
  );
}
