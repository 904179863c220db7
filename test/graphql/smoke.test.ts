import { migrateLatest, pendingMigrations } from '../../src/db/migrate';
import { describeEachDb } from '../support/harness';

describeEachDb('the service boots on a migrated database', (env) => {
  it('answers GraphQL at /graphql', async () => {
    const data = await env.ok('{ viewer { id } }');
    expect(data.viewer).toBeNull();
    expect(await env.ok('mutation { ping }', {}, { as: 'anonymous' })).toEqual({ ping: true });
  });

  it('has no pending migration and re-running them is a no-op', async () => {
    expect(await pendingMigrations(env.db)).toEqual([]);
    expect(await migrateLatest(env.db)).toEqual([]);
  });

  it('creates the built-in administrator once', async () => {
    const admins = await env.db('users').where({ role: 'administrator' });
    expect(admins).toHaveLength(1);
  });
});
