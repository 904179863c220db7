import { describeEachDb } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { termSuite } from '../support/rest/rest-term-suite';

/** GET/POST /categories and /categories/<id> (docs/contract.md §1–§8). */
describeEachDb('REST categories', (env) => {
  termSuite(env, { kind: 'category', collection: 'categories' });

  it('links a child to its parent: urls.up, parent filter, bad parent 400', async () => {
    const rest = new RestClient(env);
    const admin = { as: 'administrator' as const };
    const parent = (await rest.post('/categories', { name: 'Music' }, admin)).body;
    const child = await rest.post(
      '/categories',
      { name: 'Jazz music', parent: String(parent.id) },
      admin,
    );
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({ parent: parent.id });
    expect(child.body.urls.up).toBe(
      `http://calendar.test/wp-json/calendar/events/v1/categories/${parent.id}`,
    );
    const listed = await rest.get(`/categories?parent=${parent.id}&hide_empty=false`);
    expect(listed.body.categories.map((c: any) => c.id)).toEqual([child.body.id]);
    const bad = await rest.post('/categories', { name: 'Orphan', parent: 999999 }, admin);
    expectError(bad, 400, 'rest_invalid_param');
    expect(Object.keys(bad.body.data.params)).toEqual(['parent']);
    expectError(await rest.get('/categories?parent=999999'), 400, 'rest_invalid_param');
  });
});
