import { appOperations } from './apps-app';
import { appArchiveOperations, appBuildChannelOperations, appBuildOperations } from './apps-builds';
import { appBuildCrashOperations, appCrashReportOperations } from './apps-crashes';
import { appReviewOperations, appSuggestionOperations } from './apps-feedback';
import { appDiscoveryOperations, appSearchOperations } from './apps-search';
import { appReviewQueueOperations, appSubmissionOperations } from './apps-submissions';

/**
 * The app catalogue under `/apps`: apps, builds, archives, submissions, reviews, crashes and discovery, each topic
 * in its own file. Spread in this order, the order routes are registered in and the API reference lists them.
 */
export const appsOperations = {
  ...appArchiveOperations,
  ...appSearchOperations,
  ...appReviewQueueOperations,
  ...appOperations,
  ...appBuildOperations,
  ...appBuildCrashOperations,
  ...appBuildChannelOperations,
  ...appSubmissionOperations,
  ...appReviewOperations,
  ...appCrashReportOperations,
  ...appDiscoveryOperations,
  ...appSuggestionOperations,
} as const;
