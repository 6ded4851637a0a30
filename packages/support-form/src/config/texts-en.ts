/*
 * The form's texts in English, the source language: the seed's own texts word for word (texts-seed.ts), the form's
 * other texts, and the steps' headers, option labels and group titles as the decision tree names them. The tree's
 * data stays English (the ticket's topic path is written for the support team); the pages show these instead.
 */
import { accountGroups } from '../features/tree/data/account';
import { hubGroups } from '../features/tree/data/hub';
import { steps } from '../features/tree/data/steps';
import type { OptionGroup, StepId } from '../features/tree/types';
import { seedTexts } from './texts-seed';

const groups: readonly OptionGroup[] = [...accountGroups, ...Object.values(hubGroups).flat()];

/** Each step's question and description, by step id. */
const stepTexts = Object.fromEntries(
  Object.entries(steps).map(([id, step]) => [id, { question: step.question, description: step.description ?? '' }]),
) as Record<StepId, { question: string; description: string }>;
/** Each option's label by its value (values name the same topic wherever they appear). */
const optionLabels: Record<string, string> = Object.fromEntries(groups.flatMap((g) => g.options.map((o) => [o.value, o.label])));
/** Each group's title by its English title. */
const groupTitles: Record<string, string> = Object.fromEntries(groups.map((g) => [g.title, g.title]));

export const en = {
  ...seedTexts,
  steps: stepTexts,
  options: optionLabels,
  groups: groupTitles,
  form: {
    skip: 'Skip to content',
    yourAccount: 'Your account',
    signOut: 'Sign out',
    language: 'Language of this form',
    createAccount: 'Create an account',
    stepLoading: 'Loading…',
    myAccount: 'My Account',
    myHubs: 'My hubs',
    myOrders: 'My Orders',
    mySubscriptions: 'My Subscriptions',
    hubQuestion: (name: string) => `How can we help you with ${name}?`,
    options: (title: string) => `${title.toLowerCase()} options`,
    optionsNoTitle: 'options',
    loadingApp: 'Loading app…',
    other: 'Other',
    thisApp: 'This app',
    byEmail: 'The developer prefers to be contacted by e-mail.',
    emailDeveloper: 'E-mail the developer',
    website: 'The developer offers support on their website.',
    visitWebsite: 'Visit the support website',
    bugs: 'The developer tracks problems on their issue page.',
    reportIssue: 'Report an issue',
    forum: "The developer answers questions in the app's topic on the community forum.",
    visitTopic: 'Visit the forum topic',
    none: 'The developer has not shared a way to contact them. The community forum may be able to help.',
    askForum: 'Ask on the community forum',
    sending: 'Sending…',
    send: 'Send',
    tryAgainOr: 'Please try again or ',
    emailHere: 'feel free to send an email to the developer here',
    visitCommunity: 'Visit the community forum',
    customUseCases:
      'Please note: our support team cannot help with custom use-cases, such as building a specific Flow, script or dashboard. The community is the best place for those.',
    gathering: 'Gathering…',
    sentAlong: 'What we send along',
    account: 'Account',
    hub: 'Hub',
    hubLine: (name: string, modelName: string, model: string, software: string) =>
      `${name}, ${modelName} (${model}), software ${software}`,
    unknown: 'unknown',
    underVoltage: 'Under-voltage',
    noneValue: 'None',
    report: 'Diagnostic report',
    topic: 'Topic',
    subject: 'Subject',
    message: 'Message',
    attachments: 'Attachments',
    addFiles: 'Add files',
    orDrop: 'or drop files here',
    noFiles: 'No files added',
    filesAdded: (count: number) => `${count} ${count === 1 ? 'file' : 'files'} added`,
    uploading: (file: string) => `Uploading ${file}`,
    remove: (file: string) => `Remove ${file}`,
  },
};
