import { hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';

/** The experiments of the hub (seed section 3): features that owners switch on at their own risk. */
export const experimentCatalogue = {
  ssh: { title: 'SSH access', description: 'Log in to the hub over SSH from the local network.' },
  homekit: { title: 'HomeKit', description: "Expose the hub's devices to Apple Home." },
  poweruser: { title: 'Power user', description: 'Show advanced settings and diagnostics.' },
  virtualdevices: { title: 'Virtual devices', description: 'Create virtual sockets, buttons and IP cameras.' },
} as const;

type ExperimentId = keyof typeof experimentCatalogue;
const isExperiment = (id: string): id is ExperimentId => Object.hasOwn(experimentCatalogue, id);

function experiment(context: HubContext, id: ExperimentId) {
  return { id, ...experimentCatalogue[id], enabled: context.settings.get(`experiments.${id}.enabled`, false) };
}

function setEnabled(context: HubContext, id: string, enabled: boolean) {
  if (!isExperiment(id)) throw notFound('Experiment', id);
  context.settings.set(`experiments.${id}.enabled`, enabled);
  const result = experiment(context, id);
  context.events.entity('experiments', 'experiment', 'update', result, 'homey.system');
  return result;
}

const all = (context: HubContext) =>
  Object.fromEntries(Object.keys(experimentCatalogue).map((id) => [id, experiment(context, id as ExperimentId)]));

export const experimentsManager: HubManager = {
  name: 'experiments',
  create: (context) => ({
    implementations: implement<typeof hubOperations.experiments, HubPrincipal>(hubOperations.experiments, {
      getState: () => ({
        enabled: Object.values(all(context))
          .filter((e) => e.enabled)
          .map((e) => e.id),
      }),
      getExperiments: () => all(context),
      enableExperiment: ({ params }) => setEnabled(context, params.id, true),
      disableExperiment: ({ params }) => setEnabled(context, params.id, false),
    }),
  }),
};
