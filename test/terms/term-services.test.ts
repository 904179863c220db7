import type { AppContext } from '../../src/context';
import { InvalidParamError } from '../../src/lib/errors';
import { wordpressCode } from '../../src/rest/errors';
import { refreshTermCounts, termsForEvent } from '../../src/terms/terms';
import { describeEachDb } from '../support/harness';
import { addEvent, addTerm, eventWith } from '../support/term-fixtures';

/** The helpers the event writes call inside their transaction, against the real database. */
describeEachDb('termsForEvent and refreshTermCounts', (env) => {
  let ctx: AppContext;
  const t: Record<'live' | 'jazz' | 'other' | 'tag', number> = {} as never;

  beforeAll(async () => {
    ctx = await env.context('administrator');
    t.live = await addTerm(env.db, 'category', { name: 'Live music', slug: 'live' });
    t.jazz = await addTerm(env.db, 'category', { name: 'Jazz nights', slug: 'jazz' });
    t.other = await addTerm(env.db, 'category', { name: 'Other', slug: 'new-one' });
    t.tag = await addTerm(env.db, 'tag', { name: 'Jazz', slug: 'jazz-tag' });
  });

  const categoryRow = (id: number) => env.db('terms').where({ id }).first();

  it('resolves ids, slugs and names (case-insensitive) in order, without duplicates', async () => {
    const ids = await termsForEvent(ctx, env.db, 'category', [
      'jazz',
      ` ${t.live} `,
      'LIVE MUSIC',
      'Jazz Nights',
      String(t.jazz),
      '',
    ]);
    expect(ids).toEqual([t.jazz, t.live]);
  });

  it('prefers a slug match over a name match', async () => {
    const named = await addTerm(env.db, 'category', { name: 'pop', slug: 'popular' });
    const slugged = await addTerm(env.db, 'category', { name: 'Popular music', slug: 'pop' });
    expect(await termsForEvent(ctx, env.db, 'category', ['pop'])).toEqual([slugged]);
    expect(await termsForEvent(ctx, env.db, 'category', ['POPULAR'])).toEqual([named]);
  });

  it('creates unknown names once, with unique slugs, inside the given transaction', async () => {
    const before = await env.db('terms').count({ n: '*' }).first();
    const ids = await env.db.transaction((trx) =>
      termsForEvent(ctx, trx, 'category', ['New One', 'Brand New', 'new one', 'brand new']),
    );
    expect(ids).toHaveLength(2);
    expect(await categoryRow(ids[0]!)).toMatchObject({
      taxonomy: 'category',
      name: 'New One',
      slug: 'new-one-2',
      parent_id: null,
      description: '',
      count: 0,
    });
    expect(await categoryRow(ids[1]!)).toMatchObject({ name: 'Brand New', slug: 'brand-new' });
    const after = await env.db('terms').count({ n: '*' }).first();
    expect(Number(after!.n)).toBe(Number(before!.n) + 2);
  });

  it('creates nothing when the caller rolls its transaction back', async () => {
    const before = await env.snapshot();
    await expect(
      env.db.transaction(async (trx) => {
        await termsForEvent(ctx, trx, 'tag', ['Rolled back']);
        throw new Error('the event write failed');
      }),
    ).rejects.toThrow('the event write failed');
    expect(await env.snapshot()).toBe(before);
  });

  it('keeps taxonomies apart: a category name or id is unknown to tags', async () => {
    const ids = await termsForEvent(ctx, env.db, 'tag', ['Jazz', 'jazz nights']);
    expect(ids[0]).toBe(t.tag);
    expect(await categoryRow(ids[1]!)).toMatchObject({ taxonomy: 'tag', name: 'jazz nights' });
  });

  it('rejects unknown ids on categories/tags and changes nothing', async () => {
    const before = await env.snapshot();
    for (const [taxonomy, items, param] of [
      ['category', ['Fresh name', '999999'], 'categories'],
      ['category', [String(t.tag)], 'categories'],
      ['tag', [String(t.live)], 'tags'],
    ] as const) {
      const failure = env.db.transaction((trx) => termsForEvent(ctx, trx, taxonomy, items));
      await expect(failure).rejects.toBeInstanceOf(InvalidParamError);
      await failure.catch((err: InvalidParamError) => {
        expect(Object.keys(err.params)).toEqual([param]);
        expect(err).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'invalid_param' });
        expect(wordpressCode(err)).toBe('rest_invalid_param');
      });
    }
    expect(await env.snapshot()).toBe(before);
  });

  it('counts only published events, and recounts when things change', async () => {
    const a = await addTerm(env.db, 'category', { name: 'Counted A' });
    const b = await addTerm(env.db, 'tag', { name: 'Counted B' });
    const idle = await addTerm(env.db, 'tag', { name: 'Counted idle' });
    const published = await eventWith(env.db, [a, b]);
    await eventWith(env.db, [a]);
    for (const status of ['draft', 'pending', 'future', 'private', 'trash'])
      await eventWith(env.db, [a, b], status);
    const count = async (id: number) => (await categoryRow(id)).count as number;
    expect([await count(a), await count(b), await count(idle)]).toEqual([2, 1, 0]);

    await env.db('events').where({ id: published }).update({ status: 'draft' });
    await env.db('terms').whereIn('id', [a, b, idle]).update({ count: 7 });
    await refreshTermCounts(env.db, [a, b, a, idle, 999999]);
    expect([await count(a), await count(b), await count(idle)]).toEqual([1, 0, 0]);

    const other = await addEvent(env.db);
    await env.db('event_terms').insert({ event_id: other, term_id: b, position: 0 });
    await env.db.transaction((trx) => refreshTermCounts(trx, [b]));
    expect(await count(b)).toBe(1);
    await refreshTermCounts(env.db, []);
  });
});
