import { InvalidParamError } from '../../src/lib/errors';
import { venueForEvent, type EventVenueInput } from '../../src/places/venues';
import { describeEachDb } from '../support/harness';

/**
 * `venueForEvent` is called by event writes inside their transaction (after the event's
 * permission check, as an administrator here); tested directly.
 */
describeEachDb('venues given inside event writes', (env) => {
  const link = async (input: EventVenueInput) => {
    const ctx = await env.context('administrator');
    return env.db.transaction((trx) => venueForEvent(ctx, trx, input));
  };
  const paramsOf = async (input: EventVenueInput) => {
    const error = await link(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParamError);
    return (error as InvalidParamError).params;
  };

  it('creates a venue from its fields, de-duplicated like create_venue', async () => {
    const id = await link({ venue: 'Inline Park', city: 'Chicago', show_map: false });
    const row = await env.db('venues').where({ id }).first();
    expect(row).toMatchObject({ title: 'Inline Park', city: 'Chicago', slug: 'inline-park' });
    expect(await link({ venue: 'INLINE park', city: 'Elsewhere' })).toBe(id);
    const { venue } = await env.ok(`{ venue(id: ${id}) { venue city show_map } }`);
    expect(venue).toEqual({ venue: 'Inline Park', city: 'Chicago', show_map: false });
  });

  it('links an existing venue by id, never a trashed or unknown one', async () => {
    const id = await link({ venue: 'Linked Hall' });
    expect(await link({ id, venue: 'ignored' })).toBe(id);
    await env.ok(`mutation { delete_venue(id: ${id}) { id } }`, {}, { as: 'administrator' });
    expect(await paramsOf({ id })).toEqual({ venue: expect.stringContaining(String(id)) });
    expect(await paramsOf({ id: 987654 })).toEqual({ venue: expect.any(String) });
  });

  it('reports problems on the event parameter `venue`', async () => {
    expect(await paramsOf({})).toEqual({ venue: 'needs an id or a name' });
    expect(await paramsOf({ venue: '' })).toEqual({ venue: expect.any(String) });
    expect(await paramsOf({ venue: 'Bad Site', website: 'nope' })).toEqual({
      venue: expect.stringMatching(/^website /),
    });
    expect(await paramsOf({ venue: 'Bad Geo', geo_lat: -91 })).toEqual({
      venue: expect.stringMatching(/^geo_lat /),
    });
  });

  it("writes inside the caller's transaction", async () => {
    const ctx = await env.context('administrator');
    const aborted = env.db.transaction(async (trx) => {
      await venueForEvent(ctx, trx, { venue: 'Rolled Back Hall' });
      throw new Error('event write failed');
    });
    await expect(aborted).rejects.toThrow('event write failed');
    expect(await env.db('venues').where({ title: 'Rolled Back Hall' })).toEqual([]);
  });
});
