import { invalidParameter, notFound } from '@hearth/contract';
import { type Caller, requireAccount, requireProvider } from './access';
import { CatalogueRecords, iso, num } from './records';

/** What users tell an app's developer: reviews and ratings (with the developer's responses), thanks and suggestions. */
export class Feedback extends CatalogueRecords {
  private reviewRecord(row: {
    user_id: string;
    version: string;
    rating: number;
    comment: string;
    response: string | null;
    response_at: Date | null;
    created_at: Date;
    updated_at: Date;
    firstname: string;
    lastname: string;
  }) {
    return {
      _id: row.user_id,
      userId: row.user_id,
      user: { _id: row.user_id, name: `${row.firstname} ${row.lastname.slice(0, 1)}`.trim() },
      version: row.version,
      rating: row.rating,
      comment: row.comment,
      response: row.response === null ? null : { text: row.response, createdAt: iso(row.response_at) as string },
      createdAt: iso(row.created_at) as string,
      updatedAt: iso(row.updated_at) as string,
    };
  }

  private reviewsQuery(appId: string) {
    return this.db
      .selectFrom('app_reviews as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select([
        'r.user_id',
        'r.version',
        'r.rating',
        'r.comment',
        'r.response',
        'r.response_at',
        'r.created_at',
        'r.updated_at',
        'u.firstname',
        'u.lastname',
      ])
      .where('r.app_id', '=', appId);
  }

  async reviews(appId: string, caller: Caller) {
    await this.visibleApp(appId, caller);
    const rows = await this.reviewsQuery(appId).orderBy('r.updated_at', 'desc').execute();
    return rows.map((r) => this.reviewRecord(r));
  }

  async review(appId: string, userId: string) {
    const row = await this.reviewsQuery(appId).where('r.user_id', '=', userId).executeTakeFirst();
    if (!row) throw notFound('Review of user', userId);
    return this.reviewRecord(row);
  }

  async updateReview(appId: string, caller: Caller, input: { version: string; rating: number; comment?: string | undefined }) {
    const userId = requireAccount(caller);
    await this.visibleApp(appId, caller);
    const build = await this.db
      .selectFrom('app_builds')
      .select('id')
      .where('app_id', '=', appId)
      .where('version', '=', input.version)
      .where('channel', 'is not', null)
      .executeTakeFirst();
    if (!build) throw invalidParameter('version', `${appId} has no published version ${input.version}`);
    const values = {
      version: input.version,
      rating: input.rating,
      comment: input.comment ?? '',
      updated_at: new Date(this.context.clock.now()),
    };
    await this.db
      .insertInto('app_reviews')
      .values({ app_id: appId, user_id: userId, ...values })
      .onConflict((oc) => oc.columns(['app_id', 'user_id']).doUpdateSet(values))
      .execute();
    await this.refreshRatings(appId);
    return this.review(appId, userId);
  }

  async deleteReview(appId: string, caller: Caller) {
    const userId = requireAccount(caller);
    const result = await this.db
      .deleteFrom('app_reviews')
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('Your review of', appId);
    await this.refreshRatings(appId);
  }

  async deleteAllReviews(appId: string, caller: Caller) {
    await this.appRow(appId);
    requireProvider(caller);
    await this.db.deleteFrom('app_reviews').where('app_id', '=', appId).execute();
    await this.refreshRatings(appId);
  }

  async respondToReview(appId: string, userId: string, caller: Caller, response: string | null) {
    await this.authoredApp(appId, caller);
    await this.review(appId, userId);
    await this.db
      .updateTable('app_reviews')
      .set({ response, response_at: response === null ? null : new Date(this.context.clock.now()) })
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .execute();
    return this.review(appId, userId);
  }

  async reviewStats(appId: string, caller: Caller) {
    await this.visibleApp(appId, caller);
    const rows = await this.db
      .selectFrom('app_reviews')
      .select(['rating', (eb) => eb.fn.countAll<string>().as('count')])
      .where('app_id', '=', appId)
      .groupBy('rating')
      .execute();
    const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } as Record<1 | 2 | 3 | 4 | 5, number>;
    let count = 0;
    let sum = 0;
    for (const row of rows) {
      const n = num(row.count);
      distribution[row.rating as 1 | 2 | 3 | 4 | 5] = n;
      count += n;
      sum += n * row.rating;
    }
    return { count, average: count === 0 ? null : Math.round((sum / count) * 100) / 100, distribution };
  }

  async thanks(appId: string, caller: Caller) {
    await this.visibleApp(appId, caller);
    const count = await this.db
      .selectFrom('app_thanks')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    const mine =
      caller.userId === null
        ? undefined
        : await this.db
            .selectFrom('app_thanks')
            .select('user_id')
            .where('app_id', '=', appId)
            .where('user_id', '=', caller.userId)
            .executeTakeFirst();
    return { count: num(count.count), thanked: mine !== undefined };
  }

  async sayThanks(appId: string, caller: Caller) {
    const userId = requireAccount(caller);
    const app = await this.visibleApp(appId, caller);
    const inserted = await this.db
      .insertInto('app_thanks')
      .values({ app_id: appId, user_id: userId })
      .onConflict((oc) => oc.columns(['app_id', 'user_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 && app.settings.sendEmailThanks)
      await this.mailAuthor(app, `Someone thanked you for ${appId}`, `A Hearth user said thanks for your app ${appId}.`);
    return this.thanks(appId, caller);
  }

  // ---------------------------------------------------------------- suggestions

  async suggestions(appId: string, caller: Caller, offset: number, length: number) {
    await this.authoredApp(appId, caller);
    const rows = await this.db
      .selectFrom('app_suggestions')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(length)
      .execute();
    return rows.map((r) => ({ _id: r.id, userId: r.user_id, suggestionText: r.text, createdAt: iso(r.created_at) as string }));
  }

  async createSuggestion(appId: string, caller: Caller, text: string) {
    const userId = requireAccount(caller);
    const app = await this.visibleApp(appId, caller);
    const r = await this.db
      .insertInto('app_suggestions')
      .values({ app_id: appId, user_id: userId, text })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (app.settings.sendEmailSuggestion)
      await this.mailAuthor(app, `A suggestion for ${appId}`, `A Hearth user suggested:\n\n${text}`);
    return { _id: r.id, userId: r.user_id, suggestionText: r.text, createdAt: iso(r.created_at) as string };
  }

  /** Recomputes the rating figures kept on the app. */
  private async refreshRatings(appId: string) {
    const row = await this.db
      .selectFrom('app_reviews')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.sum<string>('rating').as('sum')])
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    await this.db
      .updateTable('apps')
      .set({ rating_count: num(row.count), rating_sum: num(row.sum) })
      .where('id', '=', appId)
      .execute();
  }
}
