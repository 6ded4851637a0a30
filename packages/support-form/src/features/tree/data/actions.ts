import type { StepId } from '../types';

/** Named actions and the steps each one appends (seed section 4). */
export const actions: Record<string, readonly StepId[]> = {
  account: ['accountCategory'],
  cloudHub: ['hubCategoryCloud'],
  proHub: ['hubCategoryPro'],
  proMiniHub: ['hubCategoryProMini'],
  apps: ['apps'],
  devices: ['devices'],
  knowledgeBase: ['knowledgeBaseFinal'],
  knowledgeBaseTicket: ['knowledgeBase', 'ticket'],
  knowledgeBaseCommunity: ['knowledgeBase', 'community'],
  ticket: ['ticket'],
  community: ['community'],
  contactSupport: ['knowledgeBase', 'ticket'],
  contactDeveloper: ['knowledgeBase', 'contactDeveloper', 'emailDeveloper'],
  /** A device whose app is supported by its developer: no knowledge base first. */
  contactDeveloperDirect: ['contactDeveloper', 'emailDeveloper'],
  updateApp: ['knowledgeBaseFinal'],
  other: ['knowledgeBase', 'ticket'],
};
