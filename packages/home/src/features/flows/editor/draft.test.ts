import { describe, expect, it } from 'vitest';
import { strings } from '../../../app/strings';
import {
  type CardDef,
  cardKeyOf,
  type Draft,
  type DraftCard,
  draftProblems,
  fieldErrorKey,
  fromFlow,
  insertToken,
  nameKey,
  newCard,
  refusalTarget,
  toBody,
  triggerSlotKey,
} from './draft';

const lamp = 'homey:device:lamp';
const defs: CardDef[] = [
  {
    id: `${lamp}:onoff_changed`,
    ownerUri: lamp,
    title: 'Turned on changed',
    tokens: [{ id: 'onoff', title: 'On', type: 'boolean' }],
  },
  { id: `${lamp}:onoff`, ownerUri: lamp, title: 'Is on' },
  {
    id: `${lamp}:dim_set`,
    ownerUri: lamp,
    title: 'Dim to',
    duration: true,
    args: [{ name: 'value', type: 'range', min: 0, max: 1, step: 0.01 }],
  },
  {
    id: 'homey:manager:logic:number_compare',
    ownerUri: 'homey:manager:logic',
    title: 'A number compares',
    args: [{ name: 'a', type: 'number', min: 0, max: 10 }],
  },
];
const def = (id: string) => defs.find((card) => card.id === id) as CardDef;
const defOf = (card: DraftCard) => defs.find((d) => d.id === `${card.uri}:${card.id}`);

function sample(): Draft & { trigger: DraftCard } {
  return {
    name: ' Evening ',
    folder: null,
    trigger: newCard('trigger', def(`${lamp}:onoff_changed`)),
    conditions: [newCard('condition', def(`${lamp}:onoff`), 'group2')],
    actions: [newCard('action', def(`${lamp}:dim_set`)), newCard('action', def(`${lamp}:dim_set`), 'else')],
  };
}

describe('the flow editor’s draft', () => {
  it('becomes the body createFlow takes (the e2e test has the hub accept it), and reads back the same', () => {
    const draft = sample();
    draft.actions[0] = { ...(draft.actions[0] as DraftCard), delay: { number: '2.5', multiplier: 60 } };
    const body = toBody(draft);
    expect(body).toMatchObject({
      name: 'Evening',
      trigger: { uri: lamp, id: 'onoff_changed' },
      conditions: [{ uri: lamp, id: 'onoff', group: 'group2', inverted: false }],
      actions: [
        { id: 'dim_set', group: 'then', args: { value: 0 }, delay: { number: '2.5', multiplier: 60 }, duration: null },
        { id: 'dim_set', group: 'else', delay: null },
      ],
    });
    const again = fromFlow({ id: 'f', ...body, folder: null } as never);
    expect(toBody({ ...again, trigger: again.trigger as DraftCard })).toEqual(body);
  });

  it("reads a flow written in the ecosystem's form (fully qualified card ids, with or without the owner)", () => {
    const body = toBody(sample());
    const qualified = {
      ...body,
      trigger: { id: `${lamp}:onoff_changed`, args: {} },
      conditions: body.conditions.map(({ uri, id, ...rest }) => ({ ...rest, uri, id: `${uri}:${id}` })),
      actions: body.actions.map(({ uri, id, ...rest }) => ({ ...rest, id: `${uri}:${id}` })),
    };
    const again = fromFlow({ id: 'f', ...qualified, folder: null } as never);
    expect(toBody({ ...again, trigger: again.trigger as DraftCard })).toEqual(body);
    expect(cardKeyOf({ id: `${lamp}:onoff` })).toBe(cardKeyOf({ uri: lamp, id: 'onoff' }));
  });

  it('finds what the editor would refuse: name, trigger, required and bounded arguments, delays', () => {
    const draft: Draft = { ...sample(), name: '  ', trigger: null };
    const compare = newCard('condition', def('homey:manager:logic:number_compare'));
    const tokenCompare = { ...newCard('condition', def('homey:manager:logic:number_compare')), args: { a: '[[onoff]]' } };
    const high = { ...compare, key: 'high', args: { a: 11 } };
    draft.conditions = [compare, tokenCompare, high];
    draft.actions = [{ ...(draft.actions[0] as DraftCard), delay: { number: '5 s', multiplier: 1 } }];
    const problems = draftProblems(draft, defOf, strings.flowEditor.problems);
    expect(problems.get(nameKey)).toBe('A flow needs a name.');
    expect(problems.get(triggerSlotKey)).toBe('Choose what starts the flow.');
    expect(problems.get(fieldErrorKey(compare, 'arg.a'))).toBe('Fill this in.');
    expect(problems.has(fieldErrorKey(tokenCompare, 'arg.a'))).toBe(false);
    expect(problems.get(fieldErrorKey(high, 'arg.a'))).toBe('Must be at most 10.');
    expect(problems.get(fieldErrorKey(draft.actions[0] as DraftCard, 'delay'))).toBe('Enter a number of 0 or more.');
  });

  it('puts the hub’s refusal on the field or card it names', () => {
    const draft = sample();
    const [then, otherwise] = draft.actions as [DraftCard, DraftCard];
    expect(refusalTarget(draft, 'Invalid Parameter Type: actions.1.delay.number. Got: number. Expected: string')).toEqual({
      key: fieldErrorKey(otherwise, 'delay'),
      reason: 'Got: number. Expected: string',
    });
    expect(refusalTarget(draft, 'Invalid Parameter: folder. Unknown flow folder x')?.key).toBe('folder');
    expect(refusalTarget(draft, 'Missing Parameter: name')?.key).toBe('name');
    expect(refusalTarget(draft, 'Invalid Parameter: actions.0.args.value. Must be a number')?.key).toBe(
      fieldErrorKey(then, 'arg.value'),
    );
    expect(refusalTarget(draft, 'Invalid Parameter: conditions.0.group. must be equal to one of the allowed values')?.key).toBe(
      fieldErrorKey(draft.conditions[0] as DraftCard, 'group'),
    );
    expect(refusalTarget(draft, 'Missing Parameter: trigger.uri')?.key).toBe(`card:${draft.trigger.key}`);
    expect(refusalTarget(draft, 'Too Many Requests')).toBeNull();
  });

  it('inserts a token reference at the caret, replacing a selection', () => {
    expect(insertToken('Lamp is ', 'onoff', 8, 8)).toEqual({ text: 'Lamp is [[onoff]]', caret: 17 });
    expect(insertToken('Lamp is X!', 'homey:manager:logic|v', 8, 9)).toEqual({
      text: 'Lamp is [[homey:manager:logic|v]]!',
      caret: 33,
    });
  });
});
