import { strings } from '../../../app/strings';
import { FieldError } from '../../../components/FieldError';
import type { Owner } from './CardPicker';
import {
  brokenTokens,
  type CardDef,
  CONDITION_GROUPS,
  type ConditionGroup,
  cardErrorKey,
  type DraftCard,
  type ErrorKey,
  fieldErrorKey,
  fieldId,
  type GlobalToken,
  type TokenDef,
} from './draft';
import { ArgField, DelayField, type DeviceChoice, DroptokenField, type TokenChoice } from './fields';

const t = strings.flowEditor;

/**
 * One card in a column: its title and owner, its arguments by type, and what its column adds (a condition's group
 * and inversion, an action's delay and duration). A card the hub no longer lists, or one using a token that is
 * gone, is marked broken and says why.
 */
export function CardView({
  card,
  def,
  owner,
  tokens,
  triggerTokens,
  globals,
  devices,
  errorOf,
  position,
  onChange,
  onRemove,
  onMove,
}: {
  card: DraftCard;
  def: CardDef | undefined;
  owner: Owner;
  tokens: readonly TokenChoice[];
  triggerTokens: readonly TokenDef[];
  globals: ReadonlyMap<string, GlobalToken>;
  devices: readonly DeviceChoice[];
  errorOf: (key: ErrorKey) => string | undefined;
  position: { first: boolean; last: boolean };
  onChange: (update: (card: DraftCard) => DraftCard) => void;
  onRemove: () => void;
  onMove: (by: -1 | 1) => void;
}) {
  const title = def?.title ?? card.id.replaceAll('_', ' ');
  const missingTokens = brokenTokens(card, triggerTokens, globals);
  const broken = !def || missingTokens.length > 0;
  const cardError = errorOf(cardErrorKey(card));
  const titleId = `card-${card.key}-title`;
  const setArg = (name: string, value: unknown) =>
    onChange((current) => {
      const args = { ...current.args };
      if (value === undefined) delete args[name];
      else args[name] = value;
      return { ...current, args };
    });
  // A card alone in its column (or group) has nowhere to move.
  const movable = card.type !== 'trigger' && !(position.first && position.last);
  return (
    <li
      id={`card-${card.key}`}
      className={`flow-card flow-card--${card.type}${broken ? ' flow-card--broken' : ''}${card.inverted ? ' flow-card--inverted' : ''}`}
      aria-labelledby={titleId}
      data-error-key={cardErrorKey(card)}
      tabIndex={-1}
    >
      <p className="flow-card__head">
        <strong id={titleId} className="flow-card__title">
          {card.inverted ? `${t.not} ` : ''}
          {title}
        </strong>
        <span className="muted">{owner.name}</span>
        {broken ? <span className="badge badge--error">{t.broken}</span> : null}
      </p>
      {!def ? <p className="form-error">{t.missingCard}</p> : null}
      {missingTokens.length > 0 ? <p className="form-error">{t.missingTokens(missingTokens.join(', '))}</p> : null}
      {def?.hint ? <p className="muted">{def.hint}</p> : null}
      {cardError ? (
        <p className="form-error" role="alert">
          {cardError}
        </p>
      ) : null}

      {(def?.args ?? []).map((arg) => {
        const key = `arg.${arg.name}`;
        return (
          <div key={arg.name} data-error-key={fieldErrorKey(card, key)}>
            <ArgField
              id={fieldId(card, key)}
              card={card}
              arg={arg}
              error={errorOf(fieldErrorKey(card, key))}
              tokens={tokens}
              devices={devices}
              onChange={(value) => setArg(arg.name, value)}
            />
          </div>
        );
      })}
      {def?.droptoken && def.droptoken.length > 0 ? (
        <div data-error-key={fieldErrorKey(card, 'droptoken')}>
          <DroptokenField
            id={fieldId(card, 'droptoken')}
            types={def.droptoken}
            value={card.droptoken}
            error={errorOf(fieldErrorKey(card, 'droptoken'))}
            tokens={tokens}
            onChange={(droptoken) => onChange((current) => ({ ...current, droptoken }))}
          />
        </div>
      ) : null}

      {card.type === 'condition' ? (
        <>
          <div className="field field--checkbox field--inline">
            <input
              id={fieldId(card, 'inverted')}
              type="checkbox"
              checked={card.inverted === true}
              onChange={(event) => onChange((current) => ({ ...current, inverted: event.target.checked }))}
            />
            <label htmlFor={fieldId(card, 'inverted')}>{t.inverted}</label>
          </div>
          <div className="field" data-error-key={fieldErrorKey(card, 'group')}>
            <label htmlFor={fieldId(card, 'group')}>{t.groupField}</label>
            <select
              id={fieldId(card, 'group')}
              value={card.group}
              onChange={(event) => onChange((current) => ({ ...current, group: event.target.value as ConditionGroup }))}
            >
              {CONDITION_GROUPS.map((group, index) => (
                <option key={group} value={group}>
                  {t.group(index + 1)}
                </option>
              ))}
            </select>
            <FieldError id={fieldId(card, 'group')} error={errorOf(fieldErrorKey(card, 'group'))} />
          </div>
        </>
      ) : null}

      {card.type === 'action'
        ? (['delay', 'duration'] as const)
            // Only cards that take a duration offer one (a stored one stays visible to be cleared).
            .filter((field) => field === 'delay' || def?.duration || card.duration)
            .map((field) => (
              <div key={field} data-error-key={fieldErrorKey(card, field)}>
                <DelayField
                  id={fieldId(card, field)}
                  label={field === 'delay' ? t.delay : t.duration}
                  value={card[field]}
                  error={errorOf(fieldErrorKey(card, field))}
                  onChange={(value) => onChange((current) => ({ ...current, [field]: value }))}
                />
              </div>
            ))
        : null}

      <div className="flow-card__tools">
        {movable ? (
          <>
            <button
              type="button"
              id={`card-${card.key}-up`}
              className="button button--small button--quiet"
              disabled={position.first}
              aria-label={t.moveUp(title)}
              onClick={() => onMove(-1)}
            >
              ↑
            </button>
            <button
              type="button"
              id={`card-${card.key}-down`}
              className="button button--small button--quiet"
              disabled={position.last}
              aria-label={t.moveDown(title)}
              onClick={() => onMove(1)}
            >
              ↓
            </button>
          </>
        ) : null}
        <button type="button" className="button button--small button--quiet" aria-label={t.removeCard(title)} onClick={onRemove}>
          {t.remove}
        </button>
      </div>
    </li>
  );
}
