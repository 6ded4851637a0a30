import { SPECIAL_MODEL_PATTERN } from '../../../config/constants';
import type { HubFacts, OptionDefinition, OptionGroup, StepId } from '../types';

const special = (hub: HubFacts) => SPECIAL_MODEL_PATTERN.test(hub.model);
const matterModels = (hub: HubFacts) => /[57]q$/.test(hub.model);
const hasBridge = (hub: HubFacts) => hub.bridgesCount > 0;

const option = (
  value: string,
  label: string,
  action: string,
  articles: string[],
  tags: string[],
  when?: (hub: HubFacts) => boolean,
): OptionDefinition => ({ value, label, action, articles, tags, ...(when ? { when } : {}) });

const appsAndDevices: OptionGroup = {
  title: 'Apps & Devices',
  options: [option('apps', 'Apps', 'apps', [], ['apps']), option('devices', 'Devices', 'devices', [], ['devices'])],
};

const platform: OptionGroup = {
  title: 'Platform',
  options: [
    option('mobileApp', 'Mobile App', 'knowledgeBaseTicket', ['mobile-app'], ['platform', 'mobile_app']),
    option('webApp', 'Web App', 'ticket', [], ['platform', 'web_app']),
  ],
};

const voiceAssistants: OptionGroup = {
  title: 'Voice Assistants',
  options: [
    option('alexa', 'Amazon Alexa', 'knowledgeBaseCommunity', ['amazon-alexa'], ['voice', 'alexa']),
    option('google', 'Google Assistant', 'knowledgeBaseCommunity', ['google-assistant'], ['voice', 'google_assistant']),
    option('siri', 'Siri', 'knowledgeBaseCommunity', ['siri'], ['voice', 'siri']),
  ],
};

const warranty: OptionGroup = {
  title: 'Warranty',
  options: [
    option('defects', 'Defects', 'ticket', [], ['warranty', 'defects']),
    option('returns', 'Returns', 'ticket', [], ['warranty', 'returns']),
  ],
};

const monitoring: OptionGroup = {
  title: 'Monitoring',
  options: [
    option('insights', 'Insights', 'knowledgeBaseCommunity', ['insights'], ['monitoring', 'insights']),
    option('energy', 'Energy', 'knowledgeBaseCommunity', ['energy'], ['monitoring', 'energy']),
    option('dashboards', 'Dashboards', 'community', [], ['monitoring', 'dashboards']),
  ],
};

const radio = (value: string, label: string, article: string, tag: string, when?: (hub: HubFacts) => boolean) =>
  option(value, label, 'knowledgeBaseTicket', [article], ['wireless', tag], when);

const addOn = (value: string, label: string, article: string, tag: string) =>
  option(value, label, 'knowledgeBaseTicket', [article], ['add_ons', tag]);

/** Cloud hub: radios other than Wi-Fi only work through a bridge, so they show only when the hub has one. */
const cloudHub: readonly OptionGroup[] = [
  {
    title: 'Add-ons',
    options: [
      addOn('bridge', 'Bridge', 'bridge', 'bridge'),
      addOn('energyDongle', 'Energy Dongle', 'energy-dongle', 'energy_dongle'),
    ],
  },
  appsAndDevices,
  {
    title: 'Automation',
    options: [
      option('flow', 'Flow', 'knowledgeBaseCommunity', ['flow'], ['automation', 'flow']),
      option('logic', 'Logic', 'knowledgeBaseCommunity', ['logic'], ['automation', 'logic']),
    ],
  },
  monitoring,
  platform,
  voiceAssistants,
  warranty,
  {
    title: 'Wireless Technologies',
    options: [
      radio('433mhz', '433 MHz', '433-mhz', '433mhz', hasBridge),
      radio('bluetooth', 'Bluetooth', 'bluetooth', 'bluetooth', hasBridge),
      radio('infrared', 'Infrared', 'infrared', 'infrared', hasBridge),
      radio('wifi', 'Wi-Fi', 'wi-fi', 'wifi'),
      radio('zigbee', 'Zigbee', 'zigbee', 'zigbee', hasBridge),
      radio('zwave', 'Z-Wave', 'z-wave', 'zwave', hasBridge),
    ],
  },
  {
    title: 'More',
    options: [
      option('family', 'Family', 'knowledgeBaseCommunity', ['family'], ['more', 'family']),
      option('other', 'Other', 'knowledgeBaseTicket', ['hub-other'], ['more', 'other']),
    ],
  },
];

const proAutomation: OptionGroup = {
  title: 'Automation',
  options: [
    option('flow', 'Flow', 'knowledgeBaseCommunity', ['flow'], ['automation', 'flow']),
    option('advancedFlow', 'Advanced Flow', 'knowledgeBaseCommunity', ['advanced-flow'], ['automation', 'advanced_flow']),
    option('logic', 'Logic', 'knowledgeBaseCommunity', ['logic'], ['automation', 'logic']),
  ],
};

const proMore: OptionGroup = {
  title: 'More',
  options: [
    option('family', 'Family', 'knowledgeBaseTicket', ['family'], ['more', 'family']),
    option('backups', 'Backups', 'knowledgeBaseTicket', ['backups'], ['more', 'backups']),
    option('other', 'Other', 'knowledgeBaseTicket', ['hub-other'], ['more', 'other']),
  ],
};

/** Pro hub: add-on ports exist on 5q/6q/7q models only; 868 MHz is absent and Matter/Thread present on 5q and 7q. */
const proHub: readonly OptionGroup[] = [
  {
    title: 'Add-ons',
    when: special,
    options: [
      addOn('bridge', 'Bridge', 'bridge', 'bridge'),
      addOn('energyDongle', 'Energy Dongle', 'energy-dongle', 'energy_dongle'),
      addOn('ethernetAdapter', 'Ethernet Adapter', 'ethernet-adapter', 'ethernet_adapter'),
    ],
  },
  appsAndDevices,
  proAutomation,
  monitoring,
  platform,
  voiceAssistants,
  warranty,
  {
    title: 'Wireless Technologies',
    options: [
      radio('433mhz', '433 MHz', '433-mhz', '433mhz'),
      radio('868mhz', '868 MHz', '868-mhz', '868mhz', (hub) => !/[57]q$/.test(hub.model)),
      radio('bluetooth', 'Bluetooth', 'bluetooth', 'bluetooth'),
      radio('infrared', 'Infrared', 'infrared', 'infrared'),
      radio('matter', 'Matter', 'matter', 'matter', matterModels),
      radio('thread', 'Thread', 'thread', 'thread', matterModels),
      radio('wifi', 'Wi-Fi', 'wi-fi', 'wifi'),
      radio('zigbee', 'Zigbee', 'zigbee', 'zigbee'),
      radio('zwave', 'Z-Wave', 'z-wave', 'zwave'),
    ],
  },
  proMore,
];

/** Pro mini hub: only Matter, Thread and Zigbee radios. */
const proMiniHub: readonly OptionGroup[] = [
  {
    title: 'Add-ons',
    when: special,
    options: [
      addOn('bridge', 'Bridge', 'bridge', 'bridge'),
      addOn('energyDongle', 'Energy Dongle', 'energy-dongle', 'energy_dongle'),
    ],
  },
  appsAndDevices,
  proAutomation,
  monitoring,
  platform,
  voiceAssistants,
  warranty,
  {
    title: 'Wireless Technologies',
    options: [
      radio('matter', 'Matter', 'matter', 'matter'),
      radio('thread', 'Thread', 'thread', 'thread'),
      radio('zigbee', 'Zigbee', 'zigbee', 'zigbee'),
    ],
  },
  proMore,
];

export const hubGroups: Record<'hubCategoryCloud' | 'hubCategoryPro' | 'hubCategoryProMini', readonly OptionGroup[]> = {
  hubCategoryCloud: cloudHub,
  hubCategoryPro: proHub,
  hubCategoryProMini: proMiniHub,
};

export type HubStep = keyof typeof hubGroups;
export const isHubStep = (step: StepId): step is HubStep => step in hubGroups;

/** The groups and options a hub shows, after its model and bridge rules. */
export function visibleHubGroups(step: HubStep, hub: HubFacts): OptionGroup[] {
  return hubGroups[step]
    .filter((group) => !group.when || group.when(hub))
    .map((group) => ({ ...group, options: group.options.filter((o) => !o.when || o.when(hub)) }))
    .filter((group) => group.options.length > 0);
}

/** Which hub sub-category a hub gets: cloud hubs by platform, the Pro mini by its model code. */
export function hubAction(hub: { platform: string; model: string }): 'cloudHub' | 'proHub' | 'proMiniHub' {
  if (hub.platform === 'cloud') return 'cloudHub';
  return /mini/i.test(hub.model) ? 'proMiniHub' : 'proHub';
}
