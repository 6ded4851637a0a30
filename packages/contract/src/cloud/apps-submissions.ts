import { Type } from 'typebox';
import { BuildParams, op, open } from './apps-helpers';
import { APPS_LIMITS, AppBuild, AppSubmission, AppSubmissionComment, AppSummary } from './apps-records';

/** The reviewers' queue of builds waiting for review. */
export const appReviewQueueOperations = {
  getReviewApps: op({
    name: 'getReviewApps',
    method: 'GET',
    path: '/app/review',
    scope: null,
    response: Type.Array(open({ app: AppSummary, build: AppBuild, submission: AppSubmission })),
    errors: ['forbidden'],
    summary: "Builds waiting for review (the provider's reviewers only, role `app_reviewer`).",
  }),
} as const;

/** Submitting a build for review, comments on it, and the decision. */
export const appSubmissionOperations = {
  createSubmission: op({
    name: 'createSubmission',
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission',
    scope: null,
    params: BuildParams,
    body: Type.Object({ autoRelease: Type.Optional(Type.Boolean({ default: true })) }),
    response: AppSubmission,
    successStatus: 201,
    errors: ['not_found', 'forbidden', 'conflict'],
    summary: 'Submits a build with a ready archive for review; with `autoRelease` approval publishes it to stable.',
  }),
  getSubmissionComments: op({
    name: 'getSubmissionComments',
    summary: "The comments on a build's submission for review.",
    method: 'GET',
    path: '/app/:appId/build/:buildId/submission/comment',
    scope: null,
    params: BuildParams,
    response: Type.Array(AppSubmissionComment),
    errors: ['not_found', 'forbidden'],
  }),
  createSubmissionComment: op({
    name: 'createSubmissionComment',
    summary: "Comments on a build's submission (developer or reviewer).",
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission/comment',
    scope: null,
    params: BuildParams,
    body: Type.Object({ text: Type.String({ minLength: 1, maxLength: APPS_LIMITS.maxCommentLength }) }),
    response: AppSubmissionComment,
    successStatus: 201,
    errors: ['not_found', 'forbidden'],
  }),
  retractSubmission: op({
    name: 'retractSubmission',
    summary: "Takes a build's submission back out of the review queue.",
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission/retract',
    scope: null,
    params: BuildParams,
    response: AppSubmission,
    errors: ['not_found', 'forbidden', 'conflict'],
  }),
  approveSubmission: op({
    name: 'approveSubmission',
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission/approve',
    scope: null,
    params: BuildParams,
    response: AppSubmission,
    errors: ['not_found', 'forbidden', 'conflict'],
    summary: 'Approves a pending submission (reviewers only); with autoRelease the build goes live at once.',
  }),
  rejectSubmission: op({
    name: 'rejectSubmission',
    summary: "Rejects a build's submission, with the reviewer's reason (reviewers only).",
    method: 'POST',
    path: '/app/:appId/build/:buildId/submission/reject',
    scope: null,
    params: BuildParams,
    response: AppSubmission,
    errors: ['not_found', 'forbidden', 'conflict'],
  }),
} as const;
