import { HearthError, notFound } from '@hearth/contract';
import type { HubContext } from '../../../platform/context';
import type { DeviceRecord, DeviceService } from '../../devices/service';
import type { InsightsService } from '../../insights/service';
import type { Notifier } from '../../notifications/store';
import type { Speaker } from '../../speech-output/speaker';
import type { AppService } from '../service';
import type { AppToHubHandlers } from './child';
import type { AppFlowCards } from './flow-cards';
import type { AppHubApi } from './hub-api';
import type { AppImages } from './images';
import type { AppRadios, AppZwaveNodes } from './radios';
import type { AppWebhooks } from './webhooks';

/** Commands an app's driver gives a pair session's views (`session.showView`, `emit`, `done`, …). */
export interface PairViewCommands {
  command(appId: string, sessionId: string, command: { kind: string; viewId?: string; event?: string; data?: unknown }): void;
}

export interface BridgeDeps {
  readonly context: HubContext;
  readonly apps: AppService;
  readonly devices: DeviceService;
  readonly insights: InsightsService;
  readonly cards: AppFlowCards;
  readonly images: AppImages;
  readonly pairing: PairViewCommands;
  /** Whether a settings change came from the app itself (so it is not echoed back to it). */
  readonly settingsFromApp: Set<string>;
  readonly notifications: Notifier;
  /** The hub's voice (`homey.speechOutput.say`). */
  readonly speech: Speaker;
  /** The hub's web API as apps holding `homey:manager:api` call it. */
  readonly hubApi: AppHubApi;
  /** Cloud webhooks apps listen to. */
  readonly webhooks: AppWebhooks;
  /** The radios the hub hands apps (`this.homey.zwave`), while their managers run. */
  readonly radios: AppRadios;
}

/**
 * The hub's answers to one app's requests: what `this.homey` in the app's process does on the hub. An app
 * reaches only its own devices, settings, cards, tokens, images and logs.
 */
export function appHandlers(deps: BridgeDeps, appId: string): AppToHubHandlers {
  const { context, apps, devices, insights, cards, images } = deps;
  const ownerUri = `homey:app:${appId}`;
  const device = (id: string): DeviceRecord => {
    const found = devices.find(id);
    if (!found || found.appId !== appId) throw notFound('Device', id);
    return found;
  };
  /** Clients hear that an image has new content, and the devices showing it that their images changed. */
  const imageChanged = (id: string) => {
    context.events.manager('images', 'image.update', { id, ownerUri }, null);
    for (const deviceId of images.devicesShowing(id)) devices.updated(deviceId, ['images']);
  };
  const setting = (key: string, change: () => void) => {
    const mark = `${appId}\u0000${key}`;
    deps.settingsFromApp.add(mark);
    try {
      change();
    } finally {
      deps.settingsFromApp.delete(mark);
    }
  };
  const zwave = (): AppZwaveNodes => {
    const nodes = deps.radios.zwave;
    if (!nodes) throw new HearthError('no_controller', 'This hub has no Z-Wave controller: HUB_ZWAVE_PORT names no stick');
    return nodes;
  };
  return {
    'zwave.getNode': ({ deviceId }) => zwave().getNode(appId, device(deviceId).id) as never,
    'zwave.command': ({ deviceId, commandClass, command, args }) =>
      zwave().command(appId, device(deviceId).id, commandClass, command, args),
    'zwave.sendCommand': async ({ deviceId, commandClassId, commandId, params }) => {
      await zwave().sendCommand(appId, device(deviceId).id, commandClassId, commandId, params);
      return null;
    },
    'device.setCapabilityValue': ({ deviceId, capabilityId, value }) => {
      const record = device(deviceId);
      if (!record.capabilities.includes(capabilityId)) throw notFound('Capability', capabilityId);
      devices.reportCapabilityValue(deviceId, capabilityId, value, { source: { kind: 'app', appId } });
      return null;
    },
    'device.setCapabilityOptions': ({ deviceId, capabilityId, options }) => {
      const record = device(deviceId);
      devices.updateFromApp(deviceId, { capabilitiesOptions: { ...record.capabilitiesOptions, [capabilityId]: options } });
      return null;
    },
    'device.addCapability': ({ deviceId, capabilityId }) => {
      const record = device(deviceId);
      if (!record.capabilities.includes(capabilityId)) {
        devices.capabilityOf({ ...record, capabilities: [...record.capabilities, capabilityId] }, capabilityId);
        devices.updateFromApp(deviceId, { capabilities: [...record.capabilities, capabilityId] });
      }
      return null;
    },
    'device.removeCapability': ({ deviceId, capabilityId }) => {
      const record = device(deviceId);
      devices.updateFromApp(deviceId, { capabilities: record.capabilities.filter((c) => c !== capabilityId) });
      return null;
    },
    'device.setAvailable': ({ deviceId, available, message }) => {
      device(deviceId);
      devices.updateFromApp(deviceId, { unavailableMessage: available ? null : (message ?? 'Unavailable') });
      return null;
    },
    'device.setWarning': ({ deviceId, message }) => {
      device(deviceId);
      devices.updateFromApp(deviceId, { warning: message });
      return null;
    },
    'device.setStore': ({ deviceId, store }) => {
      device(deviceId);
      if (JSON.stringify(store).length > 256 * 1024)
        throw new HearthError('payload_too_large', 'A device store holds at most 256 KiB');
      devices.updateFromApp(deviceId, { store });
      return null;
    },
    'device.setSettings': ({ deviceId, settings }) => {
      device(deviceId);
      devices.updateFromApp(deviceId, { settings });
      return null;
    },
    'device.setClass': ({ deviceId, class: deviceClass }) => {
      device(deviceId);
      devices.updateFromApp(deviceId, { class: deviceClass });
      return null;
    },
    'device.setEnergy': ({ deviceId, energy }) => {
      device(deviceId);
      devices.updateFromApp(deviceId, { energy });
      return null;
    },
    'device.setImage': ({ deviceId, kind, id, imageId, title }) => {
      device(deviceId);
      images.require(appId, imageId);
      images.show(deviceId, { type: kind === 'camera' ? 'camera' : 'media', id, title, imageId });
      devices.updated(deviceId, ['images']);
      return null;
    },
    'settings.set': ({ key, value }) => {
      setting(key, () => apps.setSetting(appId, key, value));
      return null;
    },
    'settings.unset': ({ key }) => {
      setting(key, () => {
        if (key in apps.settings(appId)) apps.unsetSetting(appId, key);
      });
      return null;
    },
    'flow.trigger': ({ cardId, tokens, state, deviceId }) => {
      if (deviceId !== null) device(deviceId);
      cards.trigger(appId, cardId, deviceId, tokens, state);
      return null;
    },
    'flow.argumentValues': ({ kind, cardId, deviceId }) => {
      if (deviceId !== null) device(deviceId);
      return cards.argumentValues(appId, kind, cardId, deviceId);
    },
    'flow.createToken': ({ id, type, title, value }) => {
      const tokens = cards.tokens(appId);
      if (tokens.has(id)) throw new HearthError('conflict', `Token ${id} already exists`);
      tokens.set(id, { uri: ownerUri, id, title, type, value: tokenValue(value) });
      cards.tokensChanged();
      return null;
    },
    'flow.setTokenValue': ({ id, value }) => {
      const token = cards.tokens(appId).get(id);
      if (!token) throw notFound('FlowToken', id);
      cards.tokens(appId).set(id, { ...token, value: tokenValue(value) });
      context.events.manager(
        'flowtoken',
        'flowtoken.update',
        { id: `${ownerUri}|${id}`, value: tokenValue(value) },
        'homey.flow.readonly',
      );
      return null;
    },
    'flow.unregisterToken': ({ id }) => {
      if (!cards.tokens(appId).delete(id)) throw notFound('FlowToken', id);
      cards.tokensChanged();
      return null;
    },
    'notifications.create': ({ excerpt }) => {
      deps.notifications.notify({ ownerUri, excerpt });
      return null;
    },
    'insights.createLog': ({ id, title, type, units, decimals }) => {
      insights.ensureLog(ownerUri, id, { title, type, units, decimals });
      return null;
    },
    'insights.getLogs': () => insights.logsOf(ownerUri),
    'insights.deleteLog': ({ id }) => {
      insights.deleteLog(ownerUri, id);
      return null;
    },
    'insights.createEntry': ({ id, value }) => {
      if (!insights.logsOf(ownerUri).some((log) => log.id === id)) throw notFound('Log', id);
      insights.append(ownerUri, id, value, context.clock.now());
      return null;
    },
    'images.create': () => ({ id: images.create(appId, context.clock.now()) }),
    'images.update': ({ id, source }) => {
      const found = images.require(appId, id);
      found.source = source;
      found.updatedAt = context.clock.now();
      imageChanged(id);
      return null;
    },
    'images.unregister': ({ id }) => {
      const showing = images.devicesShowing(id);
      images.unregister(appId, id);
      for (const deviceId of showing) devices.updated(deviceId, ['images']);
      return null;
    },
    'api.realtime': ({ event, data }) => {
      context.events.item('apps', 'app', appId, event, data, 'homey.app.readonly');
      return null;
    },
    'api.request': ({ method, uri, body }) => deps.hubApi.request(apps.require(appId), method, uri, body),
    'api.getOwnerApiToken': () => deps.hubApi.token(apps.require(appId)),
    'apps.getInstalled': ({ appId: other }) => apps.find(other) !== undefined,
    'apps.getVersion': ({ appId: other }) => apps.find(other)?.manifest.version ?? null,
    'pair.emit': ({ sessionId, event, data }) => {
      deps.pairing.command(appId, sessionId, { kind: 'emit', event, data });
      return null;
    },
    'pair.showView': ({ sessionId, viewId }) => {
      deps.pairing.command(appId, sessionId, { kind: 'showView', viewId });
      return null;
    },
    'pair.nextView': ({ sessionId }) => {
      deps.pairing.command(appId, sessionId, { kind: 'nextView' });
      return null;
    },
    'pair.prevView': ({ sessionId }) => {
      deps.pairing.command(appId, sessionId, { kind: 'prevView' });
      return null;
    },
    'pair.done': ({ sessionId }) => {
      deps.pairing.command(appId, sessionId, { kind: 'done' });
      return null;
    },
    'cloud.registerWebhook': async ({ id, data }) => {
      await deps.webhooks.register(appId, id, data);
      return null;
    },
    'cloud.unregisterWebhook': async ({ id }) => {
      await deps.webhooks.unregister(appId, id);
      return null;
    },
    'speech.say': ({ text }) => {
      // An app speaks on the household's behalf, as a flow does.
      deps.speech.say(context.users.owner()?.id ?? '', text);
      return null;
    },
  };
}

const tokenValue = (value: unknown): string | number | boolean | null =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
