import { slugsLike } from '../../../src/posts/store/posts';
import { insertEvent, resetCalendar } from '../../support/event-fixtures';
import { describeEachDb } from '../../support/harness';

/**
 * The slugs a new slug must differ from (`slugsLike`): `base` and every `base-…`, nothing else,
 * read as an index range on both databases (SQLite's LIKE alone scanned the table).
 */

describeEachDb('slug candidates', (env) => {
  beforeAll(async () => {
    await resetCalendar(env);
    const slugs = ['gig', 'gig-2', 'gig-live-3', 'gigs', 'gig2', 'gif', 'gig0', 'big-gig'];
    for (const slug of slugs)
      await insertEvent(env, { title: slug, slug, start: '2027-01-05 20:00:00' });
  });

  it('finds the base and its suffixed forms only', async () => {
    const found = await slugsLike(env.db, 'events', 'gig');
    expect([...found].sort()).toEqual(['gig', 'gig-2', 'gig-live-3']);
  });

  it('finds the suffixed forms when the base itself is free', async () => {
    expect(await slugsLike(env.db, 'events', 'gig-live')).toEqual(['gig-live-3']);
    expect(await slugsLike(env.db, 'events', 'concert')).toEqual([]);
  });

  // SQLite's LIKE is case-insensitive and cannot use the (binary) slug index by itself.
  if (env.dialect === 'sqlite') {
    it('reads the slug index, not the table', async () => {
      const sent = (await env.queriesOf(() => slugsLike(env.db, 'events', 'gig'))).at(-1);
      expect(sent?.sql).toContain('slug');
      const plan = (await env.db.raw(`explain query plan ${sent!.sql}`, sent!.bindings as [])) as {
        detail: string;
      }[];
      const details = plan.map((p) => p.detail).join(' | ');
      expect(details).toMatch(/SEARCH events USING (COVERING )?INDEX/);
      expect(details).not.toMatch(/SCAN events/);
    });
  }
});
