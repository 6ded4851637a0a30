import { describe, expect, it, vi } from 'vitest';
import {
  accountGroups,
  choiceOf,
  collectedUpTo,
  createEngine,
  type HubFacts,
  hubAction,
  mainOptions,
  type OptionDefinition,
  subscriptionKind,
  tree,
  visibleHubGroups,
} from '.';

const hub = (over: Partial<HubFacts> = {}): HubFacts => ({
  id: 'h1',
  name: 'Home',
  apps: [],
  bridgesCount: 0,
  language: 'en',
  licenses: [],
  model: 'hearth-pro-5q',
  modelName: 'Hearth Pro',
  platform: 'local',
  region: 'eu',
  softwareVersion: '12.0.0',
  usersCount: 1,
  ...over,
});

const labels = (step: Parameters<typeof visibleHubGroups>[0], facts: HubFacts) =>
  visibleHubGroups(step, facts).flatMap((g) => g.options.map((o) => o.label));
const groupTitles = (step: Parameters<typeof visibleHubGroups>[0], facts: HubFacts) =>
  visibleHubGroups(step, facts).map((g) => g.title);
const find = (step: Parameters<typeof visibleHubGroups>[0], facts: HubFacts, label: string): OptionDefinition => {
  const option = visibleHubGroups(step, facts)
    .flatMap((g) => g.options)
    .find((o) => o.label === label);
  if (!option) throw new Error(`no option ${label}`);
  return option;
};
const stepsOf = (action: string) => tree.actions[action];

describe('decision tree data', () => {
  it('every option action names a declared action, and every action names declared steps', () => {
    const all = [
      ...accountGroups.flatMap((g) => g.options),
      ...(['hubCategoryCloud', 'hubCategoryPro', 'hubCategoryProMini'] as const).flatMap((s) =>
        visibleHubGroups(s, hub({ bridgesCount: 1, model: 'hearth-pro-6q' })).flatMap((g) => g.options),
      ),
    ];
    for (const option of all) expect(tree.actions[option.action], option.label).toBeDefined();
    for (const steps of Object.values(tree.actions)) for (const step of steps) expect(tree.steps[step]).toBeDefined();
  });

  it('account options: knowledge base only, except Other which goes to the ticket', () => {
    expect(accountGroups.map((g) => [g.title, g.options.map((o) => o.label)])).toEqual([
      ['General', ['Name / E-mail', 'Profile Picture', 'Delete Account', 'Other']],
      ['Security', ['Password', '2FA']],
    ]);
    for (const option of accountGroups.flatMap((g) => g.options)) {
      if (option.label === 'Other') expect(stepsOf(option.action)).toEqual(['ticket']);
      else {
        expect(stepsOf(option.action)).toEqual(['knowledgeBaseFinal']);
        expect(tree.steps.knowledgeBaseFinal.type).toBe('final');
        expect(option.articles.length).toBeGreaterThan(0);
      }
    }
  });

  it('main category: unlisted hub, orders, backups, premium and unlisted subscriptions go to knowledge base then ticket', () => {
    expect(stepsOf(mainOptions.hubNotListed("My hub isn't listed").action)).toEqual(['knowledgeBase', 'ticket']);
    expect(stepsOf(mainOptions.order('1001', 'Order #1001').action)).toEqual(['knowledgeBase', 'ticket']);
    expect(stepsOf(mainOptions.orderNotListed("My order isn't listed").action)).toEqual(['knowledgeBase', 'ticket']);
    expect(stepsOf(mainOptions.subscription('homey_plus_1', 'x').action)).toEqual(['knowledgeBase', 'ticket']);
    expect(stepsOf(mainOptions.subscription('homey_premium_1', 'x').action)).toEqual(['knowledgeBase', 'ticket']);
    expect(stepsOf(mainOptions.subscription('homey_other_1', 'x').action)).toEqual(['knowledgeBase', 'ticket']);
    expect(stepsOf(mainOptions.subscriptionNotListed('x').action)).toEqual(['knowledgeBase', 'ticket']);
    expect(stepsOf(mainOptions.subscription('homey_developer_1', 'x').action)).toEqual(['ticket']);
    expect(subscriptionKind('homey_plus_a')).toBe('backups');
    expect(subscriptionKind('something_else')).toBe('unlisted');
  });

  it('chooses the hub sub-category by platform and model', () => {
    expect(hubAction({ platform: 'cloud', model: 'hearth-cloud' })).toBe('cloudHub');
    expect(hubAction({ platform: 'local', model: 'hearth-pro-5q' })).toBe('proHub');
    expect(hubAction({ platform: 'local', model: 'hearth-pro-mini-6q' })).toBe('proMiniHub');
    expect(stepsOf('cloudHub')).toEqual(['hubCategoryCloud']);
  });

  it('cloud hub: radios other than Wi-Fi only with a bridge', () => {
    const cloud = hub({ platform: 'cloud', model: 'hearth-cloud' });
    const wireless = (facts: HubFacts) =>
      visibleHubGroups('hubCategoryCloud', facts)
        .find((g) => g.title === 'Wireless Technologies')
        ?.options.map((o) => o.label);
    expect(wireless(cloud)).toEqual(['Wi-Fi']);
    expect(wireless({ ...cloud, bridgesCount: 1 })).toEqual(['433 MHz', 'Bluetooth', 'Infrared', 'Wi-Fi', 'Zigbee', 'Z-Wave']);
    expect(groupTitles('hubCategoryCloud', cloud)).toEqual([
      'Add-ons',
      'Apps & Devices',
      'Automation',
      'Monitoring',
      'Platform',
      'Voice Assistants',
      'Warranty',
      'Wireless Technologies',
      'More',
    ]);
    expect(labels('hubCategoryCloud', cloud)).toEqual(
      expect.arrayContaining(['Bridge', 'Energy Dongle', 'Flow', 'Logic', 'Family', 'Other', 'Mobile App', 'Web App']),
    );
    expect(labels('hubCategoryCloud', cloud)).not.toContain('Advanced Flow');
  });

  it('cloud hub transitions', () => {
    const cloud = hub({ platform: 'cloud', model: 'hearth-cloud', bridgesCount: 1 });
    const to = (label: string) => stepsOf(find('hubCategoryCloud', cloud, label).action);
    for (const label of ['Flow', 'Logic', 'Insights', 'Energy', 'Amazon Alexa', 'Google Assistant', 'Siri', 'Family'])
      expect(to(label), label).toEqual(['knowledgeBase', 'community']);
    for (const label of ['Bridge', 'Mobile App', 'Energy Dongle', 'Other', '433 MHz', 'Wi-Fi', 'Zigbee', 'Z-Wave'])
      expect(to(label), label).toEqual(['knowledgeBase', 'ticket']);
    expect(to('Dashboards')).toEqual(['community']);
    expect(to('Web App')).toEqual(['ticket']);
    expect(to('Defects')).toEqual(['ticket']);
    expect(to('Returns')).toEqual(['ticket']);
    expect(to('Apps')).toEqual(['apps']);
    expect(to('Devices')).toEqual(['devices']);
  });

  it('Pro hub: add-ons only on 5q/6q/7q, 868 MHz hidden on 5q/7q, Matter and Thread only on 5q/7q', () => {
    const five = hub({ model: 'hearth-pro-5q' });
    const six = hub({ model: 'hearth-pro-6q' });
    const old = hub({ model: 'hearth-pro-2019' });
    expect(groupTitles('hubCategoryPro', old)).not.toContain('Add-ons');
    expect(labels('hubCategoryPro', five)).toEqual(expect.arrayContaining(['Bridge', 'Energy Dongle', 'Ethernet Adapter']));
    expect(labels('hubCategoryPro', six)).toContain('Ethernet Adapter');
    expect(labels('hubCategoryPro', five)).not.toContain('868 MHz');
    expect(labels('hubCategoryPro', hub({ model: 'x-7q' }))).not.toContain('868 MHz');
    expect(labels('hubCategoryPro', six)).toContain('868 MHz');
    expect(labels('hubCategoryPro', five)).toEqual(expect.arrayContaining(['Matter', 'Thread']));
    expect(labels('hubCategoryPro', six)).not.toContain('Matter');
    expect(labels('hubCategoryPro', old)).not.toContain('Thread');
    expect(labels('hubCategoryPro', five)).toEqual(
      expect.arrayContaining(['Flow', 'Advanced Flow', 'Logic', 'Family', 'Backups']),
    );
  });

  it('Pro hub transitions', () => {
    const five = hub();
    const to = (label: string) => stepsOf(find('hubCategoryPro', five, label).action);
    for (const label of ['Flow', 'Advanced Flow', 'Logic', 'Insights', 'Energy', 'Amazon Alexa', 'Google Assistant', 'Siri'])
      expect(to(label).at(-1), label).toBe('community');
    expect(to('Dashboards')).toEqual(['community']);
    for (const label of ['Mobile App', 'Web App', 'Defects', 'Returns', 'Zigbee', 'Matter', 'Family', 'Backups', 'Other'])
      expect(to(label).at(-1), label).toBe('ticket');
  });

  it('Pro mini hub: only Matter, Thread and Zigbee radios', () => {
    const mini = hub({ model: 'hearth-pro-mini-6q' });
    const wireless = visibleHubGroups('hubCategoryProMini', mini).find((g) => g.title === 'Wireless Technologies');
    expect(wireless?.options.map((o) => o.label)).toEqual(['Matter', 'Thread', 'Zigbee']);
    expect(labels('hubCategoryProMini', mini)).toEqual(expect.arrayContaining(['Bridge', 'Energy Dongle', 'Advanced Flow']));
    expect(labels('hubCategoryProMini', mini)).not.toContain('Ethernet Adapter');
  });
});

describe('decision tree engine', () => {
  const engine = createEngine(tree);
  const account = mainOptions.account('Ada Lovelace');
  const other = accountGroups[0]!.options.find((o) => o.label === 'Other')!;
  const password = accountGroups[1]!.options[0]!;

  it('appends the steps of the chosen action, and continuing a plain step reveals the next one', () => {
    let state = engine.initial();
    expect(state.answers.map((a) => a.step)).toEqual(['mainCategory']);
    state = engine.choose(state, 0, choiceOf(mainOptions.hubNotListed("My hub isn't listed")));
    expect(state.answers.map((a) => a.step)).toEqual(['mainCategory', 'knowledgeBase']);
    expect(collectedUpTo(state.answers).articles).toEqual(['hub-not-listed']);
    state = engine.proceed(state, 1);
    expect(state.answers.map((a) => a.step)).toEqual(['mainCategory', 'knowledgeBase', 'ticket']);
    expect(collectedUpTo(state.answers).path).toEqual(["My hub isn't listed"]);
  });

  it('changing an earlier answer discards all later steps and their answers', () => {
    let state = engine.initial();
    state = engine.choose(state, 0, choiceOf(account));
    state = engine.choose(state, 1, choiceOf(other));
    state = engine.update(state, 2, { message: { text: 'typed', required: true, valid: false } });
    expect(state.answers.map((a) => a.step)).toEqual(['mainCategory', 'accountCategory', 'ticket']);
    state = engine.choose(state, 1, choiceOf(password));
    expect(state.answers.map((a) => a.step)).toEqual(['mainCategory', 'accountCategory', 'knowledgeBaseFinal']);
    const collected = collectedUpTo(state.answers);
    expect(collected.message).toBeUndefined();
    expect(collected.tags).toEqual(['account', 'account_password']);
    expect(collected.path).toEqual(['Ada Lovelace', 'Password']);
    state = engine.choose(state, 0, choiceOf(mainOptions.subscription('homey_developer_9', 'Developer')));
    expect(state.answers.map((a) => a.step)).toEqual(['mainCategory', 'ticket']);
    expect(collectedUpTo(state.answers).tags).toEqual(['subscription', 'subscription_developer']);
  });

  it('a final step cannot be continued', () => {
    let state = engine.initial();
    state = engine.choose(state, 0, choiceOf(account));
    state = engine.choose(state, 1, choiceOf(password));
    expect(engine.proceed(state, 2)).toBe(state);
  });

  it('a step with an invalid type logs a configuration error and is not shown', () => {
    const error = vi.fn();
    const broken = createEngine(
      {
        steps: { ...tree.steps, ticket: { ...tree.steps.ticket, type: 'bogus' as never } },
        actions: tree.actions,
      },
      { error },
    );
    let state = broken.initial();
    state = broken.choose(state, 0, choiceOf(mainOptions.subscription('homey_developer_1', 'Developer')));
    expect(state.answers.map((a) => a.step)).toEqual(['mainCategory']);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('configuration error'));
  });
});
