import type { StepDefinition, StepId } from '../types';

/** Every step of the form with its header texts. */
export const steps: Record<StepId, StepDefinition> = {
  mainCategory: {
    type: 'action',
    question: "What's your question about?",
    description: 'Choose your account, a hub, an order or a subscription.',
  },
  accountCategory: {
    type: 'action',
    question: 'How can we help you with your account?',
    description: 'Choose the topic that fits your question best.',
  },
  hubCategoryCloud: {
    type: 'action',
    question: 'How can we help you with your hub?',
    description: 'Choose the topic that fits your question best.',
  },
  hubCategoryPro: {
    type: 'action',
    question: 'How can we help you with your hub?',
    description: 'Choose the topic that fits your question best.',
  },
  hubCategoryProMini: {
    type: 'action',
    question: 'How can we help you with your hub?',
    description: 'Choose the topic that fits your question best.',
  },
  apps: {
    type: 'action',
    question: 'Which app is this about?',
    description: 'These apps are installed on the selected hub.',
  },
  devices: {
    type: 'action',
    question: 'Which device is this about?',
    description: 'These devices are paired with the selected hub, grouped by app.',
  },
  knowledgeBase: {
    type: 'plain',
    question: 'This might help you.',
    description: 'These articles answer the most common questions about this topic.',
  },
  knowledgeBaseFinal: {
    type: 'final',
    question: 'This might help you.',
    description: 'These articles answer the most common questions about this topic.',
  },
  community: {
    type: 'final',
    question: 'Ask the community.',
    description: 'Other Hearth users share their ideas, Flows and solutions on the community forum.',
  },
  contactDeveloper: {
    type: 'plain',
    question: 'Contact the developer.',
    description: 'This app is made and supported by its developer.',
  },
  emailDeveloper: {
    type: 'final',
    question: 'E-mail the developer.',
    description: 'Describe your issue. A diagnostic report of the app is sent along with your message.',
  },
  ticket: {
    type: 'final',
    question: "We're happy to help.",
    description: 'Tell us what is going on and our support team will get back to you.',
  },
};
