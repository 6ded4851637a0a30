/**
 * The provider's own app-author accounts (the Hearth apps team). Apps they publish are supported by Hearth
 * itself: the support form sends their users to Hearth support rather than to a developer. The cloud's demo
 * world creates these accounts with these ids.
 */
export const TRUSTED_APP_AUTHOR_IDS: readonly string[] = [
  '5ea7c0de0000000000a07401',
  '5ea7c0de0000000000a07402',
  '5ea7c0de0000000000a07403',
  '5ea7c0de0000000000a07404',
  '5ea7c0de0000000000a07405',
];

/**
 * The provider's hub models: the model code each hub reports, with the name people know it by and where it
 * runs (a cloud hub runs in the provider's cloud, without radios of its own).
 */
export const HUB_MODELS = {
  'hearth-pro-5q': { modelName: 'Hearth Pro (Early 2023)', platform: 'local' },
  'hearth-pro-mini-6q': { modelName: 'Hearth Pro mini', platform: 'local' },
  'hearth-cloud': { modelName: 'Hearth Cloud', platform: 'cloud' },
} as const;

export type HubModelCode = keyof typeof HUB_MODELS;

/** The name people know a hub model by; the code itself for a model this release does not know. */
export const hubModelName = (model: string): string =>
  model in HUB_MODELS ? HUB_MODELS[model as HubModelCode].modelName : model;
