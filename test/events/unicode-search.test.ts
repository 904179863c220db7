import { insertEvent, insertTerm, resetCalendar } from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * Case-insensitive search folds every letter, not ASCII only, on SQLite as on MySQL: "über"
 * finds "Über den Wolken", "ÜBER" too, in titles and descriptions, on REST and GraphQL; term
 * searches alike.
 */

describeEachDb('Unicode search', (env) => {
  const rest = new RestClient(env);

  beforeAll(async () => {
    await resetCalendar(env);
    await insertEvent(env, { title: 'Über den Wolken', start: '2027-03-01 10:00:00' });
    await insertEvent(env, {
      title: 'Concert',
      description: 'Musique à l’ÉGLISE Saint-Eustache',
      start: '2027-03-02 10:00:00',
    });
    await insertEvent(env, { title: 'Ωδείο Αθηνών', start: '2027-03-03 10:00:00' });
    await insertEvent(env, { title: 'Unrelated', start: '2027-03-04 10:00:00' });
    await insertTerm(env, 'category', 'Ölfest', { slug: 'olfest' });
    await insertTerm(env, 'tag', 'Ärger', { slug: 'arger' });
  });

  const titles = async (search: string) => {
    const response = await rest.get(`/events?search=${encodeURIComponent(search)}`);
    expect(response.status).toBe(200);
    const viaGraphql = await env.ok(
      'query($s: String) { events(search: $s) { total events { title } } }',
      {
        s: search,
      },
    );
    const listed = (response.body.events as { title: string }[]).map((e) => e.title);
    expect(viaGraphql.events.events.map((e: { title: string }) => e.title)).toEqual(listed);
    expect(response.body.total).toBe(listed.length);
    return listed;
  };

  it.each([
    ['über', ['Über den Wolken']],
    ['ÜBER', ['Über den Wolken']],
    ['Über den', ['Über den Wolken']],
    ['église', ['Concert']],
    ['l’église saint', ['Concert']],
    ['ωδείο', ['Ωδείο Αθηνών']],
    ['ΑΘΗΝΏΝ', ['Ωδείο Αθηνών']],
  ])('finds %s', async (search, expected) => {
    expect(await titles(search)).toEqual(expected);
  });

  it('finds categories and tags by name whatever the case of non-ASCII letters', async () => {
    const categories = await rest.get(`/categories?search=${encodeURIComponent('ölf')}`);
    expect(categories.body.categories.map((c: { name: string }) => c.name)).toEqual(['Ölfest']);
    const tags = await rest.get(`/tags?search=${encodeURIComponent('ÄRG')}`);
    expect(tags.body.tags.map((t: { name: string }) => t.name)).toEqual(['Ärger']);
  });
});
