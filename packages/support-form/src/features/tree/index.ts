import { actions } from './data/actions';
import { steps } from './data/steps';
import type { TreeDefinition } from './types';

export { accountGroups } from './data/account';
export { hubAction, hubGroups, isHubStep, visibleHubGroups } from './data/hub';
export { mainOptions, subscriptionKind, subscriptionTitles } from './data/main';
export * from './types';
export type { FormState } from './utils/engine';
export { choiceOf, collectedUpTo, createEngine } from './utils/engine';

/** The support form's decision tree: its steps and named actions. */
export const tree: TreeDefinition = { steps, actions };
export { appArticles, appTags, radioArticles } from './data/apps';
