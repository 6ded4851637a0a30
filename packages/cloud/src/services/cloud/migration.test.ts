import sharp from 'sharp';
import { afterAll, expect, it } from 'vitest';
import { migrations } from '../../database/migrations';
import { describeOnDatabases, migrationTestDatabase } from '../../testing';

const beforeSizes = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '20261122-80-cloud-avatar-sizes'));

describeOnDatabases('cloud account migrations', (backend) => {
  const { open, drop } = migrationTestDatabase(backend);
  afterAll(drop);

  it('resizes the avatars uploaded before sizes were kept and removes one that no longer decodes', async () => {
    const old = await open(beforeSizes);
    const user = (id: string) => ({
      id,
      email: `${id}@m.test`,
      password_hash: 'x',
      firstname: 'A',
      lastname: 'V',
      language: 'en',
      role_ids: '[]',
      avatar_type: 'image/jpeg',
      updated_at: new Date(),
    });
    await old.db
      .insertInto('users')
      .values([user('good'), user('bad')])
      .execute();
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a6' } })
      .jpeg()
      .toBuffer();
    const avatar = (id: string, data: Buffer) => ({ user_id: id, content_type: 'image/jpeg', data, updated_at: new Date() });
    // The columns the new migration adds are absent from the old table.
    await old.db
      .insertInto('avatars')
      .values([avatar('good', jpeg), avatar('bad', Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]))] as never)
      .execute();
    await old.close();

    const migrated = await open(migrations);
    const rows = await migrated.db.selectFrom('avatars').selectAll().execute();
    expect(rows.map((row) => row.user_id)).toEqual(['good']);
    const [row] = rows;
    expect(Buffer.from(row.data).equals(jpeg)).toBe(true);
    for (const [data, side] of [
      [row.medium, 128],
      [row.large, 512],
    ] as const) {
      const meta = await sharp(Buffer.from(data)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', side, side]);
    }
    const users = await migrated.db.selectFrom('users').select(['id', 'avatar_type']).orderBy('id').execute();
    expect(users).toEqual([
      { id: 'bad', avatar_type: null },
      { id: 'good', avatar_type: 'image/jpeg' },
    ]);
    await migrated.close();
  });
});
