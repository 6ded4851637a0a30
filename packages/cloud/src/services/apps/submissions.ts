import { HearthError, notFound } from '@hearth/contract';
import type { CloudContext } from '../../platform/context';
import { type Caller, isAuthor, requireAccount, requireAuthor, requireReviewer } from './access';
import type { Builds } from './builds';
import { CatalogueRecords, iso } from './records';

/** Submitting builds for review: the submissions, the reviewers' decisions and queue, and their comments. */
export class Submissions extends CatalogueRecords {
  constructor(
    context: CloudContext,
    private readonly builds: Builds,
  ) {
    super(context);
  }

  async createSubmission(appId: string, buildId: string, caller: Caller, autoRelease: boolean) {
    await this.authoredApp(appId, caller);
    const build = await this.buildRow(appId, buildId);
    const archive = await this.getArchive(build.archive_id);
    if (archive.state !== 'ready')
      throw new HearthError('conflict', `Build ${build.id} has no ready archive (state: ${archive.state})`);
    const existing = await this.db.selectFrom('app_submissions').selectAll().where('build_id', '=', build.id).executeTakeFirst();
    if (existing && (existing.state === 'pending' || existing.state === 'approved'))
      throw new HearthError('conflict', `Build ${build.id} is already submitted (${existing.state})`);
    const values = { state: 'pending' as const, auto_release: autoRelease, reviewer_user_id: null, decided_at: null };
    const row = existing
      ? await this.db
          .updateTable('app_submissions')
          .set(values)
          .where('id', '=', existing.id)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await this.db
          .insertInto('app_submissions')
          .values({ build_id: build.id, ...values })
          .returningAll()
          .executeTakeFirstOrThrow();
    return this.submissionRecord(row);
  }

  private async submission(appId: string, buildId: string) {
    const build = await this.buildRow(appId, buildId);
    const row = await this.db.selectFrom('app_submissions').selectAll().where('build_id', '=', build.id).executeTakeFirst();
    if (!row) throw notFound('Submission of build', buildId);
    return { build, row };
  }

  async decideSubmission(appId: string, buildId: string, caller: Caller, decision: 'approved' | 'rejected' | 'retracted') {
    const app = await this.appRow(appId);
    if (decision === 'retracted') requireAuthor(caller, app.author_user_id);
    else requireReviewer(caller);
    const { build, row } = await this.submission(appId, buildId);
    if (row.state !== 'pending')
      throw new HearthError('conflict', `The submission of build ${build.id} is ${row.state}, not pending`);
    const updated = await this.db
      .updateTable('app_submissions')
      .set({
        state: decision,
        decided_at: new Date(this.context.clock.now()),
        reviewer_user_id: decision === 'retracted' ? null : caller.userId,
      })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (decision === 'approved' && row.auto_release) await this.builds.publish(appId, build.id, 'stable');
    return this.submissionRecord(updated);
  }

  async submissionComments(appId: string, buildId: string, caller: Caller) {
    const app = await this.appRow(appId);
    if (!isAuthor(caller, app.author_user_id)) requireReviewer(caller);
    const build = await this.buildRow(appId, buildId);
    const rows = await this.db
      .selectFrom('app_submission_comments')
      .selectAll()
      .where('build_id', '=', build.id)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      _id: r.id,
      userId: r.user_id,
      text: r.text,
      reviewer: r.reviewer,
      createdAt: iso(r.created_at) as string,
    }));
  }

  async addSubmissionComment(appId: string, buildId: string, caller: Caller, text: string) {
    const userId = requireAccount(caller);
    const app = await this.appRow(appId);
    const author = caller.userId === app.author_user_id;
    if (!author) requireReviewer(caller);
    const { build } = await this.submission(appId, buildId);
    const r = await this.db
      .insertInto('app_submission_comments')
      .values({ build_id: build.id, user_id: userId, reviewer: !author, text })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { _id: r.id, userId: r.user_id, text: r.text, reviewer: r.reviewer, createdAt: iso(r.created_at) as string };
  }

  async reviewQueue(caller: Caller) {
    requireReviewer(caller);
    const rows = await this.db
      .selectFrom('app_submissions as s')
      .innerJoin('app_builds as b', 'b.id', 's.build_id')
      .selectAll('b')
      .select(['s.id as submission_id'])
      .where('s.state', '=', 'pending')
      .orderBy('s.created_at')
      .execute();
    const result = [];
    for (const row of rows) {
      const build = await this.buildRecord(row, false);
      if (build.submission) result.push({ app: await this.summaryOf(row.app_id), build, submission: build.submission });
    }
    return result;
  }
}
