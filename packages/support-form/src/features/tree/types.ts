import type { AppBuild } from '../../types/entities';

/** How a step behaves: it asks for a choice (action), is read and continued (plain), or ends the form (final). */
export type StepType = 'plain' | 'action' | 'final';

export type StepId =
  | 'mainCategory'
  | 'accountCategory'
  | 'hubCategoryCloud'
  | 'hubCategoryPro'
  | 'hubCategoryProMini'
  | 'apps'
  | 'devices'
  | 'knowledgeBase'
  | 'knowledgeBaseFinal'
  | 'community'
  | 'contactDeveloper'
  | 'emailDeveloper'
  | 'ticket';

export interface StepDefinition {
  type: StepType;
  question: string;
  description: string;
}

/** The facts of the selected hub that decide which options it shows. */
export interface HubFacts {
  id: string;
  name: string;
  apps: { id: string; version: string; channel?: string }[];
  bridgesCount: number;
  language: string;
  licenses: string[];
  model: string;
  modelName: string;
  platform: string;
  region: string;
  softwareVersion: string;
  usersCount: number;
}

export type SupportType = 'contactSupport' | 'website' | 'email' | 'bugs' | 'forum' | 'none';

/** A text field of a final step with its validation state. */
export interface FieldValue {
  text: string;
  required: boolean;
  valid: boolean;
}

/** What a step's answer adds to the form record (seed section 3, "Form answer record"). */
export interface Collected {
  articles: string[];
  tags: string[];
  path: string[];
  appId?: string;
  appBuild?: AppBuild | null;
  appAuthor?: { userId: string; verified: boolean };
  supportType?: SupportType;
  /** Where the developer prefers to be contacted (website, mailto, bugs or forum address). */
  supportUrl?: string;
  appOutOfDate?: boolean;
  orderId?: string;
  subscriptionId?: string;
  hub?: HubFacts;
  underVoltagePercentage?: string;
  diagnosticReport?: string;
  message?: FieldValue;
  subject?: FieldValue;
  files?: File[];
  showValidation?: boolean;
  driverId?: string;
}

/** One option of an action step. */
export interface OptionDefinition {
  value: string;
  label: string;
  action: string;
  articles: readonly string[];
  tags: readonly string[];
  /** Shown only when this holds for the selected hub. */
  when?: (hub: HubFacts) => boolean;
}

export interface OptionGroup {
  title: string;
  options: readonly OptionDefinition[];
  when?: (hub: HubFacts) => boolean;
}

/** The choice a person made on an action step. */
export interface Choice {
  value: string;
  label: string;
  action: string;
  data?: Partial<Collected>;
}

/** One shown step and its answer; `remaining` are the steps queued after it by the last action. */
export interface Answer {
  step: StepId;
  value: string | null;
  action: string | null;
  data: Partial<Collected>;
  remaining: StepId[];
}

export interface TreeDefinition {
  steps: Record<StepId, StepDefinition>;
  /** Named actions: the steps each appends, in order. */
  actions: Record<string, readonly StepId[]>;
}
