import { describeEachDb } from '../../support/harness';
import { RestClient } from '../../support/rest/rest-client';

/**
 * What an event create costs in SQL statements (issue 6, W1): `POST /events` with a venue, two
 * organizers, a category and two tags, all given by id. 11 statements: the bearer token with
 * its user (one join); BEGIN; the venue; the id; the event (its slug as asked: the unique index
 * checks it); the organizers (one query); their links; the terms (one locking read checks and
 * locks them); their links; the terms' counts; COMMIT. A slug already taken costs the refused
 * insert, a read of the slugs like it, and the insert again. The answer is built from what the
 * transaction wrote and read: no read-back. A write may also bump the list-total generation
 * (`list_generations`): counted apart.
 */

const DATES = { start_date: '2027-05-04 19:00:00', end_date: '2027-05-04 22:00:00' };
const MAX_STATEMENTS = 11;

/** The answer without what only single reads show (`json_ld`), to compare a create with a GET. */
function withoutJsonLd(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutJsonLd);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'json_ld')
      .map(([key, v]) => [key, withoutJsonLd(v)]),
  );
}

describeEachDb('event create: SQL statements', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };

  async function idOf(path: string, fields: Record<string, unknown>): Promise<number> {
    const response = await rest.post(path, fields, admin);
    expect(response.status).toBe(201);
    return response.body.id as number;
  }

  /** The statements `send` made (the list-total generation's included), and its 201 body. */
  async function counted(
    send: () => ReturnType<RestClient['post']>,
  ): Promise<{ statements: string[]; body: Record<string, any> }> {
    let response!: Awaited<ReturnType<typeof send>>;
    const statements = await env.statementsOf(async () => {
      response = await send();
    });
    expect(response.status).toBe(201);
    return { statements, body: response.body as Record<string, any> };
  }

  it(`costs at most ${MAX_STATEMENTS} statements, and answers what a read then shows`, async () => {
    const venue = await idOf('/venues', { venue: 'Count Hall', city: 'Lyon' });
    const organizers = [
      await idOf('/organizers', { organizer: 'Count Org One' }),
      await idOf('/organizers', { organizer: 'Count Org Two' }),
    ];
    const category = await idOf('/categories', { name: 'Count Category' });
    const tags = [await idOf('/tags', { name: 'Count Tag A' }), await idOf('/tags', { name: 'B' })];
    const body = (n: number) => ({
      title: `Counted ${n}`,
      description: '<p>Counted statements.</p>',
      ...DATES,
      timezone: 'Europe/Paris',
      cost: '$12',
      venue,
      organizer: organizers,
      categories: [String(category)],
      tags: tags.map(String),
    });
    // The first request of a token records its use (an UPDATE at most once a minute): not here.
    expect((await rest.post('/events', body(1), admin)).status).toBe(201);

    const { statements, body: created } = await counted(() => rest.post('/events', body(2), admin));
    const own = statements.filter((sql) => !/\blist_generations\b/.test(sql));
    expect(own.length).toBeLessThanOrEqual(MAX_STATEMENTS);
    expect(statements.length - own.length).toBeLessThanOrEqual(1);
    expect(own.filter((sql) => /\bslug\b.*\blike\b/i.test(sql))).toEqual([]);

    expect(created.venue.id).toBe(venue);
    expect(created.organizer.map((o: { id: number }) => o.id)).toEqual(organizers);
    expect(created.categories.map((t: { id: number }) => t.id)).toEqual([category]);
    expect(created.tags.map((t: { id: number }) => t.id)).toEqual(tags);
    // The counts as the commit left them: this event is the second in each term.
    expect([...created.categories, ...created.tags].map((t: { count: number }) => t.count)).toEqual(
      [2, 2, 2],
    );
    const read = await rest.get(`/events/${created.id}`, admin);
    expect(withoutJsonLd(created)).toEqual(withoutJsonLd(read.body));
  });

  it('takes the next free slug when the asked one is taken, in the same transaction', async () => {
    const fields = { title: `Taken Slug ${env.dialect}`, ...DATES };
    const first = await counted(() => rest.post('/events', fields, admin));
    const second = await counted(() => rest.post('/events', fields, admin));
    expect(second.body.slug).toBe(`${first.body.slug}-2`);
    // The refused insert, the read of the slugs like it, the insert again: one BEGIN, one COMMIT.
    expect(second.statements.length).toBe(first.statements.length + 2);
    expect(second.statements.filter((sql) => /^begin/i.test(sql))).toHaveLength(1);
    expect(second.statements.filter((sql) => /\bslug\b.*\blike\b/i.test(sql))).toHaveLength(1);
    const read = await rest.get(`/events/${second.body.id}`, admin);
    expect(read.body.slug).toBe(`${first.body.slug}-2`);
  });

  it('reads the event back when the database stores its text differently', async () => {
    // A lone surrogate: each driver writes (and answers) its own replacement characters.
    const title = `Lone \ud800 surrogate ${Date.now()}`;
    const created = await rest.post('/events', { title, ...DATES, excerpt: 'x\udfff' }, admin);
    expect(created.status).toBe(201);
    expect(created.body.title).not.toBe(title);
    const read = await rest.get(`/events/${created.body.id}`, admin);
    expect(withoutJsonLd(created.body)).toEqual(withoutJsonLd(read.body));
  });
});
