import { InvalidParamError } from '../../src/lib/errors';
import { organizerForEvent, type EventOrganizerInput } from '../../src/places/organizers';
import { describeEachDb } from '../support/harness';

/**
 * `organizerForEvent` is called by event writes inside their transaction (after the event's
 * permission check, as an administrator here); tested directly.
 */
describeEachDb('organizers given inside event writes', (env) => {
  const link = async (input: EventOrganizerInput) => {
    const ctx = await env.context('administrator');
    return env.db.transaction((trx) => organizerForEvent(ctx, trx, input));
  };
  const paramsOf = async (input: EventOrganizerInput) => {
    const error = await link(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamError);
    return (error as InvalidParamError).params;
  };

  it('creates an organizer from its fields, de-duplicated like create_organizer', async () => {
    const id = await link({ organizer: 'Inline Org', email: 'inline@example.com' });
    expect(await env.db('organizers').where({ id }).first()).toMatchObject({
      title: 'Inline Org',
      email: 'inline@example.com',
      slug: 'inline-org',
    });
    expect(await link({ organizer: 'inline ORG' })).toBe(id);
    expect(await link({ organizer: 'Inline Org', description: 'other' })).not.toBe(id);
  });

  it('links an existing organizer by id, never a trashed or unknown one', async () => {
    const id = await link({ organizer: 'Linked Org' });
    expect(await link({ id })).toBe(id);
    await env.ok(`mutation { delete_organizer(id: ${id}) { id } }`, {}, { as: 'administrator' });
    expect(await paramsOf({ id })).toEqual({ organizer: expect.stringContaining(String(id)) });
    expect(await paramsOf({ id: 987654 })).toEqual({ organizer: expect.any(String) });
  });

  it('reports problems on the event parameter `organizer`', async () => {
    expect(await paramsOf({ email: 'a@b.c' })).toEqual({ organizer: 'needs an id or a name' });
    expect(await paramsOf({ organizer: 'Bad Org', website: 'x' })).toEqual({
      organizer: expect.stringMatching(/^website /),
    });
  });

  it("writes inside the caller's transaction", async () => {
    const ctx = await env.context('administrator');
    const aborted = env.db.transaction(async (trx) => {
      await organizerForEvent(ctx, trx, { organizer: 'Rolled Back Org' });
      throw new Error('event write failed');
    });
    await expect(aborted).rejects.toThrow('event write failed');
    expect(await env.db('organizers').where({ title: 'Rolled Back Org' })).toEqual([]);
  });
});
