import { resetCalendar } from '../support/event-fixtures';
import { describeEachDb, type TestUser } from '../support/harness';
import { expectError, RestClient } from '../support/rest/rest-client';

/**
 * No squatting (issue 16): de-duplication by name reuses only a published record (unchanged) or
 * one the caller may edit, and a venue or organizer that another author's event links can no
 * longer be changed by a caller who may not edit others' records.
 */

const KINDS = [
  { kind: 'venue', path: '/venues', field: 'venue' },
  { kind: 'organizer', path: '/organizers', field: 'organizer' },
] as const;

type Kind = (typeof KINDS)[number];

const EVENT = { start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 22:00:00' };

describeEachDb('no squatting on venue and organizer names', (env) => {
  const rest = new RestClient(env);
  let other: TestUser;
  beforeAll(async () => {
    other = await env.createUser('contributor', 'contributor-2');
  });
  beforeEach(() => resetCalendar(env));

  const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  /** A record of `k` created directly, answering its id. */
  async function createRecord(
    k: Kind,
    body: Record<string, unknown>,
    who: { as?: 'contributor' | 'editor' | 'author'; authorization?: string },
  ): Promise<number> {
    const res = await rest.post(k.path, body, who);
    expect(res.status).toBe(201);
    return res.body.id as number;
  }

  /** An event linking a record of `k` given inline by name: the id it linked. */
  async function inlineLink(
    k: Kind,
    name: string,
    who: { as?: 'contributor' | 'editor'; authorization?: string },
    extra: Record<string, unknown> = {},
  ): Promise<{ event: number; linked: number }> {
    const item = { [k.field]: name, ...extra };
    const body = {
      title: `Gig at ${name}`,
      ...EVENT,
      [k.field]: k.kind === 'venue' ? item : [item],
    };
    const res = await rest.post('/events', body, who);
    expect(res.status).toBe(201);
    const event = res.body.id as number;
    const stored =
      k.kind === 'venue'
        ? (await env.db('events').where({ id: event }).first()).venue_id
        : (await env.db('event_organizers').where({ event_id: event }).first()).organizer_id;
    return { event, linked: Number(stored) };
  }

  const count = async (k: Kind, name: string) =>
    Number(
      (
        await env
          .db(`${k.kind}s`)
          .whereRaw('LOWER(title) = ?', [name.toLowerCase()])
          .count({ n: '*' })
      )[0]?.n,
    );

  describe.each(KINDS)('$kind', (k) => {
    it("never adopts another contributor's draft, inline or direct", async () => {
      const planted = await createRecord(k, { [k.field]: 'Main Hall' }, { as: 'contributor' });
      const inline = await inlineLink(k, 'main hall', bearer(other));
      expect(inline.linked).not.toBe(planted);
      const direct = await createRecord(k, { [k.field]: 'MAIN HALL' }, bearer(other));
      expect(direct).not.toBe(planted);
      // Each caller reuses their own draft.
      expect((await inlineLink(k, 'Main hall', { as: 'contributor' })).linked).toBe(planted);
      expect(await count(k, 'main hall')).toBe(2);
    });

    it('reuses a published record without changing it', async () => {
      const open = await createRecord(
        k,
        { [k.field]: 'Open Hall', website: 'https://open.example' },
        { as: 'editor' },
      );
      const inline = await inlineLink(
        k,
        'open hall',
        { as: 'contributor' },
        {
          website: 'https://squat.example',
        },
      );
      expect(inline.linked).toBe(open);
      const row = await env.db(`${k.kind}s`).where({ id: open }).first();
      expect({ status: row.status, website: row.website }).toEqual({
        status: 'publish',
        website: 'https://open.example',
      });
    });

    it("freezes a contributor's record once an editor's event links it", async () => {
      const planted = await createRecord(k, { [k.field]: 'Side Room' }, { as: 'contributor' });
      // Before any other author's event links it, it is the contributor's to edit.
      const before = await rest.post(`${k.path}/${planted}`, { phone: '1' }, { as: 'contributor' });
      expect(before.status).toBe(200);
      // The editor may edit it, so the editor's event reuses it …
      expect((await inlineLink(k, 'side room', { as: 'editor' })).linked).toBe(planted);
      const snapshot = await env.snapshot();
      // … and from then on the contributor may neither edit nor delete it.
      const edit = await rest.post(`${k.path}/${planted}`, { phone: '2' }, { as: 'contributor' });
      expectError(edit, 403, 'rest_forbidden');
      expectError(
        await rest.delete(`${k.path}/${planted}`, { as: 'contributor' }),
        403,
        'rest_forbidden',
      );
      const forced = await rest.delete(`${k.path}/${planted}?force=true`, { as: 'contributor' });
      expectError(forced, 403, 'rest_forbidden');
      expect(await env.snapshot()).toBe(snapshot);
      // Editors still may.
      const byEditor = await rest.post(`${k.path}/${planted}`, { phone: '3' }, { as: 'editor' });
      expect(byEditor.status).toBe(200);
    });

    it('lets a contributor change a record only their own events link', async () => {
      const { linked } = await inlineLink(k, 'Own Room', { as: 'contributor' });
      const edit = await rest.post(`${k.path}/${linked}`, { phone: '5' }, { as: 'contributor' });
      expect(edit.status).toBe(200);
      const gone = await rest.delete(`${k.path}/${linked}`, { as: 'contributor' });
      expect(gone.status).toBe(200);
      expect(gone.body.status).toBe('trash');
    });
  });

  it('authors reuse their own and published records, not others\u2019 drafts', async () => {
    const k = KINDS[0];
    const draft = await createRecord(k, { venue: 'Loft', status: 'draft' }, { as: 'contributor' });
    const own = await createRecord(k, { venue: 'Attic', status: 'draft' }, { as: 'author' });
    expect(await createRecord(k, { venue: 'loft' }, { as: 'author' })).not.toBe(draft);
    expect(await createRecord(k, { venue: 'attic' }, { as: 'author' })).toBe(own);
  });
});
