import { Type } from 'typebox';
import { APP_MANIFEST_LIMITS, FreeFormObject } from '../limits';
import { AppParams, BuildParams, op, Version } from './apps-helpers';
import { AppArchive, AppBuild, AppChannel, ArchiveState } from './apps-records';

const PerLanguage = Type.Record(Type.String(), Type.String({ maxLength: 20_000 }));

/** A build's archive: the app package uploaded, checked and its facts extracted. */
export const appArchiveOperations = {
  updateArchive: op({
    name: 'updateArchive',
    method: 'PUT',
    path: '/archive/:archiveId',
    scope: null,
    params: Type.Object({ archiveId: Type.String({ pattern: '^[0-9a-f]{24}$' }) }),
    body: Type.Object({
      state: Type.Optional(ArchiveState),
      error: Type.Optional(Type.String({ maxLength: 2000 })),
      manifest: Type.Optional(FreeFormObject(APP_MANIFEST_LIMITS)),
      assetsId: Type.Optional(Type.String({ maxLength: 200 })),
      hash: Type.Optional(Type.String({ maxLength: 200 })),
      size: Type.Optional(Type.Number({ minimum: 0 })),
    }),
    response: AppArchive,
    errors: ['not_found', 'forbidden', 'conflict', 'payload_too_large', 'unsupported_media_type'],
    summary:
      "Uploads a build's archive (the app package as tar.gz or zip, `Content-Type: application/gzip` or `application/zip`): " +
      'stored, hashed, its app.json validated and its facts extracted; the state moves from processing to ready or failed. ' +
      'The provider may instead set the state fields with a JSON body.',
  }),
} as const;

/** An app's builds: listing, creating and reading them. */
export const appBuildOperations = {
  getBuilds: op({
    name: 'getBuilds',
    summary: 'Every build of an app, newest first, with its state.',
    method: 'GET',
    path: '/app/:appId/build',
    scope: null,
    params: AppParams,
    response: Type.Array(AppBuild),
    errors: ['not_found', 'forbidden'],
  }),
  createBuild: op({
    name: 'createBuild',
    method: 'POST',
    path: '/app/:appId/build',
    scope: null,
    params: AppParams,
    body: Type.Object({
      version: Version,
      env: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 5000 }))),
      changelog: Type.Optional(PerLanguage),
      readme: Type.Optional(PerLanguage),
    }),
    response: AppBuild,
    successStatus: 201,
    errors: ['forbidden', 'conflict'],
    summary: 'Creates a build (and the app on its first build, owned by the caller). Upload its archive to `archive.uploadUrl`.',
  }),
  getBuild: op({
    name: 'getBuild',
    method: 'GET',
    path: '/app/:appId/build/:buildId',
    scope: null,
    auth: false,
    params: BuildParams,
    response: AppBuild,
    errors: ['not_found'],
    summary: 'A build: published builds are public (without `env`); others only for their author and reviewers.',
  }),
} as const;

/** Moving a build to a release channel. */
export const appBuildChannelOperations = {
  updateBuildChannel: op({
    name: 'updateBuildChannel',
    method: 'POST',
    path: '/app/:appId/build/:buildId/channel',
    scope: null,
    params: BuildParams,
    body: Type.Object({ channel: AppChannel }),
    response: AppBuild,
    errors: ['not_found', 'forbidden', 'conflict'],
    summary: 'Moves a build to a channel: `stable` (live; needs an approved submission), `beta` (test) or `alpha`.',
  }),
} as const;
