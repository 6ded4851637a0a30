import { useEffect, useState } from 'react';
import { strings } from '../../../app/strings';
import { invalidProps } from '../../../components/FieldError';
import { messageOf } from '../../../lib/errors';
import { useHub } from '../../../lib/hub';
import type { CardArg, CardType, DraftCard } from './draft';
import { Field, moveFocus } from './Field';

const t = strings.flowEditor;

interface Suggestion {
  id?: unknown;
  name?: unknown;
  description?: unknown;
  [key: string]: unknown;
}

/**
 * An autocomplete argument: the person types, the card's owner suggests (through the hub's autocomplete call), and
 * the chosen suggestion is kept whole, as the card expects it when it runs.
 */
export function AutocompleteField({
  id,
  label,
  card,
  arg,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  card: DraftCard;
  arg: CardArg;
  value: unknown;
  error?: string;
  onChange: (value: unknown) => void;
}) {
  const { hub } = useHub();
  const chosen = value && typeof value === 'object' ? (value as Suggestion) : null;
  const chosenName = chosen ? String(chosen.name ?? chosen.id ?? '') : '';
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [suggestions, setSuggestions] = useState<Suggestion[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const listId = `${id}-suggestions`;
  const chosenId = `${id}-chosen`;

  // The other arguments change what some cards suggest, but asking again on each keystroke elsewhere is noise.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!open) return;
    let current = true;
    setSuggestions(null);
    const timer = setTimeout(async () => {
      try {
        const answer = (await hub.flow.getFlowCardAutocomplete({
          type: `flowcard${card.type}` as `flowcard${CardType}`,
          uri: card.uri,
          id: card.id,
          name: arg.name,
          query,
          args: JSON.stringify(card.args),
        })) as unknown as Suggestion[];
        if (current) {
          setSuggestions(answer);
          setFailure(null);
        }
      } catch (problem) {
        if (current) setFailure(messageOf(problem));
      }
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [hub, open, query, card.type, card.uri, card.id, arg.name]);

  return (
    <Field
      id={id}
      label={label}
      error={error ?? failure ?? undefined}
      hint={
        <span id={chosenId} className="muted">
          {chosen ? t.autocomplete.chosen(chosenName) : t.autocomplete.nothingChosen}
        </span>
      }
    >
      <input
        id={id}
        type="search"
        autoComplete="off"
        value={query}
        placeholder={chosenName || undefined}
        onFocus={() => setOpen(true)}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            document.querySelector<HTMLButtonElement>(`#${CSS.escape(listId)} button`)?.focus();
          }
        }}
        {...invalidProps(id, error)}
        aria-describedby={[chosenId, error ? `${id}-error` : null].filter(Boolean).join(' ')}
      />
      {open ? (
        <div id={listId} className="suggestions">
          {suggestions === null ? (
            <p className="muted">{t.autocomplete.searching}</p>
          ) : suggestions.length === 0 ? (
            <p className="muted">{t.autocomplete.none}</p>
          ) : (
            <ul className="rows">
              {suggestions.slice(0, 50).map((suggestion, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: suggestions carry no guaranteed key
                <li key={index}>
                  <button
                    type="button"
                    className="suggestion"
                    onKeyDown={(event) => moveFocus(event, `#${CSS.escape(listId)} button`)}
                    onClick={() => {
                      onChange(suggestion);
                      setQuery('');
                      setOpen(false);
                      document.getElementById(id)?.focus();
                    }}
                  >
                    <span>{String(suggestion.name ?? suggestion.id ?? '')}</span>
                    {suggestion.description ? <span className="muted"> {String(suggestion.description)}</span> : null}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </Field>
  );
}
