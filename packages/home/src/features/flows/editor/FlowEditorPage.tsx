import type { Manager } from '@hearth/client/browser';
import { type FormEvent, useCallback, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { strings } from '../../../app/strings';
import { FieldError, invalidProps } from '../../../components/FieldError';
import { useNotify } from '../../../components/Notices';
import { Failed, Loading } from '../../../components/Status';
import { messageOf } from '../../../lib/errors';
import { useHub, useLiveItems } from '../../../lib/hub';
import { useAsync } from '../../../lib/useLoad';
import { flowPath } from '../model';
import { CardPicker } from './CardPicker';
import { CardView } from './CardView';
import { type Catalog, loadCatalog, useOwnerOf } from './catalog';
import {
  type ActionGroup,
  type CardDef,
  CONDITION_GROUPS,
  type ConditionGroup,
  cardKeyOf,
  type Draft,
  type DraftCard,
  draftProblems,
  type ErrorKey,
  emptyDraft,
  folderKey,
  fromFlow,
  nameKey,
  newCard,
  refusalTarget,
  toBody,
  triggerSlotKey,
  type WireFlow,
} from './draft';
import { CardList, EditorFooter } from './EditorParts';
import type { DeviceChoice, TokenChoice } from './fields';
import './editor.css';

const t = strings.flowEditor;

interface Loaded extends Catalog {
  flow: WireFlow | null;
}

/** Where a new card goes: the trigger slot, a condition group, or the then / else actions. */
type Slot = { type: 'trigger' } | { type: 'condition'; group: ConditionGroup } | { type: 'action'; group: ActionGroup };

/**
 * The flow editor (standard flows), loaded on demand: a new flow (`id` absent) or an existing one. When / And /
 * Then / Else columns (stacked on a phone), cards from the hub's lists through the picker, each card's arguments
 * by type, tokens, condition groups and inversion, delays and durations; saved over the API, the hub's refusals on
 * the field or card they name, broken cards marked.
 */
export default function FlowEditorPage({ id }: { id?: string }) {
  const { hub } = useHub();
  const loaded = useAsync<Loaded>(async () => {
    const [catalog, flow] = await Promise.all([loadCatalog(hub), id ? hub.flow.getFlow({ id }) : Promise.resolve(null)]);
    return { ...catalog, flow: flow as unknown as WireFlow | null };
  }, [hub, id]);
  const title = id
    ? loaded.state === 'ready' && loaded.data.flow
      ? t.editTitle(loaded.data.flow.name)
      : t.editTitle('')
    : t.newTitle;
  if (loaded.state === 'loading') return <Loading title={id ? undefined : title} />;
  if (loaded.state === 'failed') return <Failed error={loaded.error} title={title} />;
  return <Editor id={id} data={loaded.data} />;
}

function Editor({ id, data }: { id?: string; data: Loaded }) {
  const { hub } = useHub();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const devices = useLiveItems<DeviceChoice>(hub.manager('devices') as Manager, 'device');
  const folders = useLiveItems<{ id: string; name: string }>(hub.manager('flow') as Manager, 'flowfolder');
  const [draft, setDraft] = useState<Draft>(() => (data.flow ? fromFlow(data.flow) : emptyDraft()));
  const [problems, setProblems] = useState<Map<ErrorKey, string>>(new Map());
  /** The hub's refusal of the last save, on what it names; it stays until the next save. */
  const [refusal, setRefusal] = useState<{ key: ErrorKey; reason: string } | null>(null);
  const errorOf = (key: ErrorKey) => problems.get(key) ?? (refusal?.key === key ? refusal.reason : undefined);
  const highestGroup = Math.max(1, ...draft.conditions.map((card) => CONDITION_GROUPS.indexOf(card.group as ConditionGroup) + 1));
  const [groupCount, setGroupCount] = useState(highestGroup);
  const [formError, setFormError] = useState<string | null>(null);
  const [picking, setPicking] = useState<{ slot: Slot } | null>(null);
  const [busy, setBusy] = useState(false);

  const deviceList = devices.state === 'ready' ? devices.items : [];
  const ownerOf = useOwnerOf(data, deviceList);
  const defOf = useCallback((card: DraftCard) => data.cards[card.type].get(cardKeyOf(card)), [data.cards]);

  const triggerDef = draft.trigger ? defOf(draft.trigger) : undefined;
  const triggerTokens = triggerDef?.tokens ?? [];
  const tokens = useMemo<TokenChoice[]>(
    () => [
      ...triggerTokens.map((token) => ({
        reference: token.id,
        title: token.title,
        type: token.type,
        owner: t.tokens.fromTrigger,
      })),
      ...[...data.globals.values()].map((token) => ({
        reference: token.id,
        title: token.title,
        type: token.type,
        owner: ownerOf(token).name,
      })),
    ],
    [triggerTokens, data.globals, ownerOf],
  );

  /** Marks already shown follow the draft as it changes (a fixed field loses its mark); none appear while typing. */
  const change = (next: Draft) => {
    setDraft(next);
    if (problems.size > 0) {
      const still = new Map([...draftProblems(next, defOf, t.problems)].filter(([key]) => problems.has(key)));
      setProblems(still);
      if (still.size === 0 && !refusal) setFormError(null);
    }
  };
  const updateCard = (key: string, update: (card: DraftCard) => DraftCard) =>
    change({
      ...draft,
      trigger: draft.trigger?.key === key ? update(draft.trigger) : draft.trigger,
      conditions: draft.conditions.map((card) => (card.key === key ? update(card) : card)),
      actions: draft.actions.map((card) => (card.key === key ? update(card) : card)),
    });
  const removeCard = (key: string) =>
    change({
      ...draft,
      trigger: draft.trigger?.key === key ? null : draft.trigger,
      conditions: draft.conditions.filter((card) => card.key !== key),
      actions: draft.actions.filter((card) => card.key !== key),
    });
  /** Moves a card one place within its column (and group), keeping the others' order. */
  const moveCard = (card: DraftCard, by: -1 | 1) => {
    const list = card.type === 'condition' ? draft.conditions : draft.actions;
    const peers = list.filter((other) => other.group === card.group);
    const other = peers[peers.indexOf(card) + by];
    if (!other) return;
    const swapped = list.map((item) => (item === card ? other : item === other ? card : item));
    change(card.type === 'condition' ? { ...draft, conditions: swapped } : { ...draft, actions: swapped });
    requestAnimationFrame(() => document.getElementById(`card-${card.key}-${by < 0 ? 'up' : 'down'}`)?.focus());
  };

  const pick = (def: CardDef) => {
    if (!picking) return;
    const { slot } = picking;
    const card = newCard(slot.type, def, slot.type === 'trigger' ? undefined : slot.group);
    if (slot.type === 'trigger') change({ ...draft, trigger: card });
    else if (slot.type === 'condition') change({ ...draft, conditions: [...draft.conditions, card] });
    else change({ ...draft, actions: [...draft.actions, card] });
    setPicking(null);
    // Focus goes to the new card's first field, or to the card itself.
    requestAnimationFrame(() => {
      const element = document.getElementById(`card-${card.key}`);
      (element?.querySelector<HTMLElement>('input, select, textarea') ?? element)?.focus();
    });
  };

  const focusError = (key: ErrorKey) => {
    requestAnimationFrame(() => {
      const target = document.querySelector<HTMLElement>(`[data-error-key="${CSS.escape(key)}"]`);
      (target?.matches('input, select, textarea, button')
        ? target
        : (target?.querySelector<HTMLElement>('input, select, button') ?? target)
      )?.focus();
    });
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    setRefusal(null);
    const found = draftProblems(draft, defOf, t.problems);
    setProblems(found);
    if (found.size > 0 || !draft.trigger) {
      setFormError(t.notSaved);
      const first = [...found.keys()][0];
      if (first) focusError(first);
      return;
    }
    setBusy(true);
    try {
      const body = toBody({ ...draft, trigger: draft.trigger });
      const saved = (id
        ? await hub.flow.updateFlow({ id, flow: body })
        : await hub.flow.createFlow({ flow: body })) as unknown as {
        id: string;
        name: string;
      };
      notify('info', t.saved(saved.name));
      navigate(flowPath('flow', saved.id));
    } catch (error) {
      const message = messageOf(error);
      const target = refusalTarget(draft, message);
      if (target) {
        setRefusal(target);
        setFormError(t.refused(message));
        focusError(target.key);
      } else setFormError(t.refused(message));
    } finally {
      setBusy(false);
    }
  }

  const cardProps = (card: DraftCard, position: { first: boolean; last: boolean }) => ({
    card,
    def: defOf(card),
    owner: ownerOf(defOf(card) ?? { ownerUri: card.uri }),
    tokens: card.type === 'trigger' ? tokens.filter((token) => token.owner !== t.tokens.fromTrigger) : tokens,
    triggerTokens,
    globals: data.globals,
    devices: deviceList,
    errorOf,
    position,
    onChange: (update: (card: DraftCard) => DraftCard) => updateCard(card.key, update),
    onRemove: () => removeCard(card.key),
    onMove: (by: -1 | 1) => moveCard(card, by),
  });
  const positions = (list: DraftCard[]) => (card: DraftCard) => ({
    first: list.indexOf(card) === 0,
    last: list.indexOf(card) === list.length - 1,
  });

  const shownGroups = CONDITION_GROUPS.slice(0, Math.max(groupCount, highestGroup));
  const thenActions = draft.actions.filter((card) => card.group !== 'else');
  const elseActions = draft.actions.filter((card) => card.group === 'else');
  const nameError = errorOf(nameKey);
  const folderError = errorOf(folderKey);
  const triggerError = errorOf(triggerSlotKey);

  return (
    <>
      <p className="crumb">
        <Link href={id ? flowPath('flow', id) : '/flows'}>{id ? data.flow?.name : strings.flows.back}</Link>
      </p>
      <h1 tabIndex={-1}>{id && data.flow ? t.editTitle(data.flow.name) : t.newTitle}</h1>
      {data.flow?.broken ? <p className="form-error">{strings.flows.brokenExplained}</p> : null}
      <form className="flow-editor" onSubmit={(event) => void save(event)} noValidate>
        <div className="inline-form">
          <div className="field" data-error-key={nameKey}>
            <label htmlFor="flow-name">{t.name}</label>
            <input
              id="flow-name"
              type="text"
              maxLength={200}
              value={draft.name}
              onChange={(event) => change({ ...draft, name: event.target.value })}
              {...invalidProps('flow-name', nameError)}
            />
            <FieldError id="flow-name" error={nameError} />
          </div>
          <div className="field" data-error-key={folderKey}>
            <label htmlFor="flow-folder">{t.folder}</label>
            <select
              id="flow-folder"
              value={draft.folder ?? ''}
              onChange={(event) => change({ ...draft, folder: event.target.value || null })}
              {...invalidProps('flow-folder', folderError)}
            >
              <option value="">{t.noFolder}</option>
              {(folders.state === 'ready' ? folders.items : []).map((folder) => (
                <option key={folder.id} value={folder.id}>
                  {folder.name}
                </option>
              ))}
            </select>
            <FieldError id="flow-folder" error={folderError} />
          </div>
        </div>

        <div className="flow-columns">
          <section className="flow-column" aria-labelledby="column-when">
            <h2 id="column-when">{t.columnWhen}</h2>
            <p className="muted">{t.columnWhenHint}</p>
            {draft.trigger ? (
              <ul className="flow-cards">
                <CardView {...cardProps(draft.trigger, { first: true, last: true })} />
              </ul>
            ) : null}
            <div data-error-key={triggerSlotKey}>
              <button
                type="button"
                id="add-trigger"
                className="button button--quiet flow-add"
                onClick={() => setPicking({ slot: { type: 'trigger' } })}
                {...invalidProps('add-trigger', triggerError)}
              >
                {draft.trigger ? t.replaceTrigger : t.addTrigger}
              </button>
              <FieldError id="add-trigger" error={triggerError} />
            </div>
          </section>

          <section className="flow-column" aria-labelledby="column-and">
            <h2 id="column-and">{t.columnAnd}</h2>
            <p className="muted">{t.columnAndHint}</p>
            {shownGroups.map((group, index) => {
              const cards = draft.conditions.filter((card) => card.group === group);
              return (
                <div key={group} className="flow-group">
                  {index > 0 ? <p className="flow-group__or">{t.or}</p> : null}
                  <h3 id={`group-${group}`}>{t.group(index + 1)}</h3>
                  <CardList
                    cards={cards}
                    labelledBy={`group-${group}`}
                    props={(card) => cardProps(card, positions(cards)(card))}
                  />
                  <button
                    type="button"
                    className="button button--quiet flow-add"
                    onClick={() => setPicking({ slot: { type: 'condition', group } })}
                  >
                    {t.addCondition(index + 1)}
                  </button>
                </div>
              );
            })}
            {shownGroups.length < 3 ? (
              <button
                type="button"
                className="button button--quiet flow-add"
                onClick={() => setGroupCount(Math.max(groupCount, highestGroup) + 1)}
              >
                {t.addGroup}
              </button>
            ) : null}
          </section>

          {(['then', 'else'] as const).map((group) => {
            const cards = group === 'then' ? thenActions : elseActions;
            const heading = `column-${group}`;
            return (
              <section key={group} className="flow-column" aria-labelledby={heading}>
                <h2 id={heading}>{group === 'then' ? t.columnThen : t.columnElse}</h2>
                <p className="muted">{group === 'then' ? t.columnThenHint : t.columnElseHint}</p>
                <CardList cards={cards} labelledBy={heading} props={(card) => cardProps(card, positions(cards)(card))} />
                <button
                  type="button"
                  className="button button--quiet flow-add"
                  onClick={() => setPicking({ slot: { type: 'action', group } })}
                >
                  {group === 'then' ? t.addAction : t.addElse}
                </button>
              </section>
            );
          })}
        </div>

        <EditorFooter
          error={formError}
          busy={busy}
          save={t.save}
          saving={t.saving}
          cancel={t.cancel}
          back={id ? flowPath('flow', id) : '/flows'}
        />
      </form>
      {picking ? (
        <CardPicker
          type={picking.slot.type}
          cards={[...data.cards[picking.slot.type].values()]}
          ownerOf={ownerOf}
          onPick={pick}
          onClose={() => setPicking(null)}
        />
      ) : null}
    </>
  );
}
