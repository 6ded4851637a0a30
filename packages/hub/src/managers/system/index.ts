import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { hubModels } from '../../config';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';

/** Models with an under-voltage sensor: codes ending in 5q, 6q or 7q. */
export const hasUnderVoltageSensor = (model: string): boolean => /[567]q$/.test(model);

function systemInfo(context: HubContext) {
  const { config } = context;
  const model = hubModels[config.model];
  return {
    id: config.id,
    name: hubName(context),
    model: config.model,
    modelName: model.modelName,
    platform: model.platform,
    platformVersion: model.platform === 'local' ? 2 : 1,
    softwareVersion: config.softwareVersion,
    language: config.language,
    uptime: Math.round((Date.now() - context.startedAt.getTime()) / 1000),
    bootTime: context.startedAt.toISOString(),
    nodeVersion: process.version,
    ...(hasUnderVoltageSensor(config.model) ? { videoCoreUnderVoltageCurrentlyRatio: 0 } : {}),
  };
}

/** The hub's name: set by its owner, defaulting to the configured one. */
export const hubName = (context: HubContext): string => context.settings.get('system.name', context.config.name);

export const systemManager: HubManager = {
  name: 'system',
  implementations: (context) =>
    implement<typeof hubOperations.system, HubPrincipal>(hubOperations.system, {
      ping: () => ({ id: context.config.id, version: context.config.softwareVersion }),
      getInfo: () => systemInfo(context),
      getSystemName: () => hubName(context),
      setSystemName: ({ body }) => {
        context.settings.set('system.name', body.name.trim());
        return hubName(context);
      },
    }),
};
