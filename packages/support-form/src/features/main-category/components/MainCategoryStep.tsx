import { currentLanguage } from '@hearth/i18n';
import { OptionTiles, type Tile } from '../../../components/OptionTiles';
import { StepFrame } from '../../../components/StepFrame';
import { format, i18n, texts } from '../../../config/texts';
import type { Hub } from '../../../types/entities';
import { type StepProps, useFormContext } from '../../form/context';
import { choiceOf, type HubFacts, mainOptions, type OptionDefinition, subscriptionKind, subscriptionTitles } from '../../tree';

export const hubFacts = (hub: Hub): HubFacts => ({
  id: hub.id,
  name: hub.name,
  apps: hub.apps,
  bridgesCount: hub.bridges.length,
  language: hub.language,
  licenses: hub.licenses,
  model: hub.model,
  modelName: hub.modelName,
  platform: hub.platform,
  region: hub.region,
  softwareVersion: hub.softwareVersion,
  usersCount: hub.users.length,
});

const DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };
/** A date in the form's language; its English writes day, month, year ("2 May 2025") as it always has. */
const formatDate = (value: string) => {
  if (Number.isNaN(new Date(value).getTime())) return value;
  return currentLanguage(i18n) === 'en' ? new Date(value).toLocaleDateString('en-GB', DATE) : format.date(value, DATE);
};

/** "What's your question about?": the account, each hub, each order and each subscription, with "isn't listed" tiles. */
export function MainCategoryStep({ answer, status, reveal, choose }: StepProps) {
  const { user, orders } = useFormContext();
  const definition = texts.steps.mainCategory;
  const entries = new Map<string, { option: OptionDefinition; data: Parameters<typeof choiceOf>[1] }>();
  const add = (option: OptionDefinition, data: Parameters<typeof choiceOf>[1] = {}) => {
    entries.set(option.value, { option, data });
    return option;
  };

  // The topic of a ticket about the account reads "My Account → …", whoever is signed in.
  const account = add(mainOptions.account('My Account'));
  const accountTiles: Tile[] = [
    {
      value: account.value,
      label: user.fullname,
      detail: user.email,
      icon: user.avatar?.medium ? <img className="avatar" src={user.avatar.medium} alt="" width={48} height={48} /> : null,
    },
  ];
  const hubTiles: Tile[] = [
    ...user.hubs.map((hub) => {
      const option = add(mainOptions.hub(hubFacts(hub)), { hub: hubFacts(hub) });
      return { value: option.value, label: hub.name, detail: hub.modelName };
    }),
    { value: add(mainOptions.hubNotListed(texts.hubNotListed)).value, label: texts.hubNotListed },
  ];
  const orderTiles: Tile[] = [
    ...(orders ?? []).map((order) => {
      // The order number of the confirmation e-mail; the ticket still carries the order's id.
      const label = texts.order(order.number ?? order.id);
      const option = add(mainOptions.order(order.id, label), { orderId: order.id });
      const detail = [formatDate(order.date), order.items?.join(', ')].filter(Boolean).join(' · ');
      return { value: option.value, label, detail };
    }),
    { value: add(mainOptions.orderNotListed(texts.orderNotListed)).value, label: texts.orderNotListed },
  ];
  const subscriptionTiles: Tile[] = [
    ...user.subscriptions.flatMap((subscription) => {
      const kind = subscriptionKind(subscription.id);
      if (kind === 'unlisted') return [];
      const since = texts.since(formatDate(subscription.startedAt));
      const option = add(mainOptions.subscription(subscription.id, subscriptionTitles[kind]), {
        subscriptionId: subscription.id,
      });
      return [{ value: option.value, label: subscriptionTitles[kind], detail: since }];
    }),
    { value: add(mainOptions.subscriptionNotListed(texts.subscriptionNotListed)).value, label: texts.subscriptionNotListed },
  ];

  const select = (value: string) => {
    const entry = entries.get(value);
    if (entry) choose(choiceOf(entry.option, entry.data));
  };
  return (
    <StepFrame
      stepName="mainCategory"
      question={definition.question}
      description={definition.description}
      status={status}
      reveal={reveal}
    >
      <OptionTiles title={texts.form.myAccount} tiles={accountTiles} selected={answer.value} onSelect={select} />
      <OptionTiles title={texts.form.myHubs} tiles={hubTiles} selected={answer.value} onSelect={select} />
      <OptionTiles title={texts.form.myOrders} tiles={orderTiles} selected={answer.value} onSelect={select} />
      <OptionTiles title={texts.form.mySubscriptions} tiles={subscriptionTiles} selected={answer.value} onSelect={select} />
    </StepFrame>
  );
}
