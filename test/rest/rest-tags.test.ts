import { describeEachDb } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';
import { termSuite } from '../support/rest/rest-term-suite';

/** GET/POST /tags and /tags/<id> (docs/contract.md §1–§8). */
describeEachDb('REST tags', (env) => {
  termSuite(env, { kind: 'tag', collection: 'tags' });

  it('ignores a parent sent to a tag (tags have none) and never shows one', async () => {
    const rest = new RestClient(env);
    const made = await rest.post('/tags', { name: 'Flat', parent: 5 }, { as: 'administrator' });
    expect(made.status).toBe(201);
    expect(made.body).not.toHaveProperty('parent');
  });
});
