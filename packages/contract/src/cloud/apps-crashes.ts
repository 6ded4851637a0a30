import { Type } from 'typebox';
import { AppParams, BuildParams, DateTime, op, Version } from './apps-helpers';
import { APPS_LIMITS, AppCrashGroup, AppCrashStats } from './apps-records';

/** A build's crash reports, grouped, and how often it crashed. */
export const appBuildCrashOperations = {
  getCrashes: op({
    name: 'getCrashes',
    method: 'GET',
    path: '/app/:appId/build/:buildId/crash',
    scope: null,
    params: BuildParams,
    response: Type.Array(AppCrashGroup),
    errors: ['not_found', 'forbidden'],
    summary: "Crash reports of a build grouped by stack, most frequent first (the app's author).",
  }),
  getCrashesStats: op({
    name: 'getCrashesStats',
    summary: 'How often a build crashed, over time.',
    method: 'GET',
    path: '/app/:appId/build/:buildId/crash/stats',
    scope: null,
    params: BuildParams,
    response: AppCrashStats,
    errors: ['not_found', 'forbidden'],
  }),
} as const;

/** Crash reports from hubs, and the developer's reply to one. */
export const appCrashReportOperations = {
  createCrash: op({
    name: 'createCrash',
    method: 'POST',
    path: '/app/:appId/crash',
    scope: null,
    auth: false,
    params: AppParams,
    body: Type.Object({
      appVersion: Version,
      homeyId: Type.String({ minLength: 1, maxLength: 100 }),
      homeyVersion: Type.String({ minLength: 1, maxLength: 64 }),
      homeyModelId: Type.Optional(Type.String({ maxLength: 100 })),
      homeyModelName: Type.Optional(Type.String({ maxLength: 200 })),
      stack: Type.String({ minLength: 1, maxLength: APPS_LIMITS.maxStackLength }),
    }),
    response: Type.Object({ _id: Type.String(), stackHash: Type.String() }),
    successStatus: 201,
    errors: ['not_found'],
    summary: 'A hub reports that an app crashed.',
  }),
  replyToCrash: op({
    name: 'replyToCrash',
    method: 'POST',
    path: '/app/crash/:crashId/reply',
    scope: null,
    params: Type.Object({ crashId: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
    body: Type.Object({
      subject: Type.String({ minLength: 1, maxLength: 200 }),
      body: Type.String({ minLength: 1, maxLength: APPS_LIMITS.maxCommentLength }),
      from: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    response: Type.Object({ _id: Type.String(), repliedAt: DateTime }),
    errors: ['not_found', 'forbidden', 'conflict'],
    summary: "The developer's reply to a crash report, mailed to the owner of the hub that reported it.",
  }),
} as const;
