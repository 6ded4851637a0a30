import type { ComponentProps } from 'react';
import { Link } from 'wouter';
import { FormError } from '../../../components/FieldError';
import { CardView } from './CardView';
import type { DraftCard } from './draft';

/** A column's (or a condition group's) cards in their order, each drawn by `props`; nothing when it has none. */
export function CardList(props: {
  cards: DraftCard[];
  labelledBy: string;
  props: (card: DraftCard) => ComponentProps<typeof CardView>;
}) {
  if (props.cards.length === 0) return null;
  return (
    <ul className="flow-cards" aria-labelledby={props.labelledBy}>
      {props.cards.map((card) => (
        <CardView key={card.key} {...props.props(card)} />
      ))}
    </ul>
  );
}

/** An editor's end: the hub's reason when it refused the flow, Save, and Cancel back to where the editor came from. */
export function EditorFooter(props: {
  error: string | null;
  busy: boolean;
  save: string;
  saving: string;
  cancel: string;
  back: string;
}) {
  return (
    <>
      <FormError error={props.error} />
      <div className="actions">
        <button type="submit" className="button" disabled={props.busy}>
          {props.busy ? props.saving : props.save}
        </button>
        <Link href={props.back} className="button button--quiet">
          {props.cancel}
        </Link>
      </div>
    </>
  );
}
