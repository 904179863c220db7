import { describeEachDb, type Caller } from '../support/harness';
import { useImageServer } from '../support/image-server';
import { firstError, insertEvent, VENUE_FIELDS } from '../support/linked-fixtures';

const CREATE = `mutation($input: VenueInput!) { create_venue(input: $input) { ${VENUE_FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $input: VenueInput!) {
  update_venue(id: $id, input: $input) { ${VENUE_FIELDS} } }`;
const UPDATE_BY_SLUG = `mutation($slug: String!, $input: VenueInput!) {
  update_venue_by_slug(slug: $slug, input: $input) { ${VENUE_FIELDS} } }`;
const DELETE = `mutation($id: Int!, $force: Boolean) {
  delete_venue(id: $id, force: $force) { ${VENUE_FIELDS} } }`;
const DELETE_BY_SLUG = `mutation($slug: String!) {
  delete_venue_by_slug(slug: $slug) { id status slug } }`;
const READ = `query($id: Int!) { venue(id: $id) { ${VENUE_FIELDS} } }`;
const READ_BY_SLUG = `query($slug: String!) { venue_by_slug(slug: $slug) { ${VENUE_FIELDS} } }`;

describeEachDb('venue writes', (env) => {
  const images = useImageServer();
  const create = async (input: Record<string, unknown>, as: Caller = 'administrator') =>
    (await env.ok(CREATE, { input }, { as })).create_venue;
  const update = async (id: number, input: Record<string, unknown>) =>
    (await env.ok(UPDATE, { id, input }, { as: 'administrator' })).update_venue;
  const venueCount = async () => Number((await env.db('venues').count({ n: '*' }))[0]?.n);

  it('creates a venue with every field and reads it back by id and by slug', async () => {
    const created = await create(
      {
        venue: '  Main Hall ',
        description: '<p>The big hall</p><script>alert(1)</script>',
        excerpt: '<em>Big</em>',
        address: '1 Main St',
        city: 'Springfield',
        country: 'United States',
        state: 'IL',
        zip: '62701',
        phone: '555-1234',
        website: 'https://venue.example.com',
        geo_lat: 39.7817,
        geo_lng: -89.6501,
        show_map: false,
      },
      'editor',
    );
    expect(created).toMatchObject({
      author: String(await env.userId('editor')),
      status: 'publish',
      date: '2026-11-21 08:00:00',
      date_utc: '2026-11-21 08:00:00',
      modified_utc: '2026-11-21 08:00:00',
      url: 'http://calendar.test/venue/main-hall/',
      venue: 'Main Hall',
      description: '<p>The big hall</p>',
      excerpt: '<em>Big</em>',
      slug: 'main-hall',
      image: null,
      stateprovince: 'IL',
      geo_lat: 39.7817,
      geo_lng: -89.6501,
      show_map: false,
      show_map_link: true,
      json_ld: null,
      global_id: `calendar.test?id=${created.id}`,
      global_id_lineage: [`calendar.test?id=${created.id}`],
    });

    const { venue } = await env.ok(READ, { id: created.id });
    expect({ ...venue, json_ld: null }).toEqual(created);
    expect(venue.json_ld).toEqual({
      '@type': 'Place',
      name: 'Main Hall',
      description: 'The big hall',
      url: 'http://calendar.test/venue/main-hall/',
      address: {
        '@type': 'PostalAddress',
        streetAddress: '1 Main St',
        addressLocality: 'Springfield',
        addressRegion: 'IL',
        postalCode: '62701',
        addressCountry: 'United States',
      },
      geo: { '@type': 'GeoCoordinates', latitude: 39.7817, longitude: -89.6501 },
      telephone: '555-1234',
      sameAs: 'https://venue.example.com',
    });
    const { venue_by_slug } = await env.ok(READ_BY_SLUG, { slug: 'main-hall' });
    expect(venue_by_slug).toEqual(venue);
  });

  it('de-duplicates creates by name (any case) and by description when one is given', async () => {
    const first = await create({ venue: 'Dedup Hall' });
    const before = await venueCount();
    const again = await create({ venue: 'DEDUP hall', city: 'Elsewhere' });
    expect(again).toEqual(first);
    expect(await venueCount()).toBe(before);

    const described = await create({ venue: 'Desc Hall', description: '<p>One</p>' });
    expect((await create({ venue: 'desc HALL', description: '<p>One</p>' })).id).toBe(described.id);
    const other = await create({ venue: 'Desc Hall', description: '<p>Two</p>' });
    expect(other.id).not.toBe(described.id);
    expect(other.slug).toBe('desc-hall-2');

    // A trashed venue is not a duplicate.
    await env.ok(DELETE, { id: first.id }, { as: 'administrator' });
    expect((await create({ venue: 'Dedup Hall' })).id).not.toBe(first.id);
  });

  it('keeps slugs unique and takes a requested one', async () => {
    const a = await create({ venue: 'Slug Hall', description: 'a' });
    const b = await create({ venue: 'Slug Hall', description: 'b' });
    const c = await create({ venue: 'Another', slug: 'Slug Hall' });
    const d = await create({ venue: 'Requested', slug: 'Café Crème!' });
    expect([a.slug, b.slug, c.slug, d.slug]).toEqual([
      'slug-hall',
      'slug-hall-2',
      'slug-hall-3',
      'cafe-creme',
    ]);
  });

  it('updates only the fields present, and "" or null clears them', async () => {
    const v = await create({
      venue: 'Partial Hall',
      city: 'Paris',
      zip: '75001',
      phone: '0102',
      website: 'https://partial.test',
      geo_lat: 48.85,
      geo_lng: 2.35,
    });
    const moved = await update(v.id, { city: 'Lyon' });
    expect(moved).toEqual({ ...v, city: 'Lyon' });

    const cleared = await update(v.id, { zip: '', website: '', phone: null, geo_lat: null });
    expect(cleared).toMatchObject({ city: 'Lyon', zip: '', website: '', phone: '', geo_lat: null });
    expect(cleared.geo_lng).toBe(2.35);

    // Renaming to another venue's name is allowed on update; the slug stays unless given.
    await create({ venue: 'Other Hall' });
    const renamed = await update(v.id, { venue: 'Other Hall' });
    expect(renamed).toMatchObject({ id: v.id, venue: 'Other Hall', slug: 'partial-hall' });
    expect((await update(v.id, { slug: 'renamed hall' })).slug).toBe('renamed-hall');
  });

  it('rejects invalid input naming the field, and changes nothing', async () => {
    const v = await create({ venue: 'Valid Hall' });
    const cases: [string, Record<string, unknown>, string][] = [
      [CREATE, { input: { venue: 'Bad', website: 'foo' } }, 'website'],
      [CREATE, { input: { venue: 'Bad', author: 9999 } }, 'author'],
      [CREATE, { input: { venue: 'Bad', status: 'trash' } }, 'status'],
      [CREATE, { input: { venue: 'Bad', geo_lat: 90.5 } }, 'geo_lat'],
      [CREATE, { input: { venue: 'Bad', geo_lng: -180.01 } }, 'geo_lng'],
      [CREATE, { input: { venue: 'Bad', date: 'not a date at all' } }, 'date'],
      [CREATE, { input: { venue: 'Bad', image: 'ftp://x.test/a.png' } }, 'image'],
      [CREATE, { input: { venue: ' ' } }, 'venue'],
      // A duplicate name does not excuse a bad field.
      [CREATE, { input: { venue: 'Valid Hall', website: 'foo' } }, 'website'],
      [UPDATE, { id: v.id, input: { venue: '' } }, 'venue'],
      [UPDATE, { id: v.id, input: { city: 'Rome', website: 'nope' } }, 'website'],
      [UPDATE, { id: v.id, input: { geo_lng: 200 } }, 'geo_lng'],
      [UPDATE, { id: v.id, input: { author: 0 } }, 'author'],
    ];
    for (const [query, variables, param] of cases) {
      const before = await env.snapshot();
      const error = firstError(await env.gql(query, variables, { as: 'administrator' }));
      expect({ param, ...error }).toMatchObject({
        param,
        code: 'BAD_USER_INPUT',
        rest_code: 'rest_invalid_param',
        params: { [param]: expect.any(String) },
      });
      expect(await env.snapshot()).toBe(before);
    }
  });

  it('requires the name on create', async () => {
    const before = await env.snapshot();
    const error = firstError(
      await env.gql(CREATE, { input: { city: 'Nowhere' } }, { as: 'administrator' }),
    );
    expect(error).toEqual({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_missing_callback_param',
      params: ['venue'],
    });
    expect(await env.snapshot()).toBe(before);
  });

  it('derives stateprovince from the country unless one is stored', async () => {
    const region = async (input: Record<string, unknown>) =>
      (await create({ state: 'CA', province: 'Ontario', ...input })).stateprovince;
    expect(await region({ venue: 'SP US', country: 'US' })).toBe('CA');
    expect(await region({ venue: 'SP USA', country: 'United States' })).toBe('CA');
    expect(await region({ venue: 'SP none' })).toBe('CA');
    expect(await region({ venue: 'SP Canada', country: 'Canada' })).toBe('Ontario');
    expect(await region({ venue: 'SP given', country: 'Canada', stateprovince: 'Given' })).toBe(
      'Given',
    );
  });

  it('scales back a contributor asking to publish', async () => {
    const v = await create({ venue: 'Contributed Hall', status: 'publish' }, 'contributor');
    expect(v.status).toBe('pending');
  });

  it('stores an image by URL, reuses it, and "" removes it', async () => {
    const url = images.url('/hall.JPG');
    const v = await create({ venue: 'Pictured Hall', image: url });
    expect(v.image).toMatchObject({ url, extension: 'jpg' });
    const w = await create({ venue: 'Pictured Too', image: String(v.image.id) });
    expect(w.image.id).toBe(v.image.id);
    expect((await update(v.id, { image: '' })).image).toBeNull();
  });

  it('trashes (keeping event links), refuses a second trash, deletes for good with force', async () => {
    const v = await create({ venue: 'Doomed Hall' });
    const eventId = await insertEvent(env, { venueId: v.id });

    const trashed = (await env.ok(DELETE, { id: v.id }, { as: 'administrator' })).delete_venue;
    expect(trashed).toMatchObject({ id: v.id, status: 'trash', venue: 'Doomed Hall' });
    expect((await env.db('events').where({ id: eventId }).first()).venue_id).toBe(v.id);

    const again = await env.gql(DELETE, { id: v.id }, { as: 'administrator' });
    expect(firstError(again)).toMatchObject({ code: 'GONE', rest_code: 'venue-is-in-trash' });
    const read = await env.gql(READ, { id: v.id }, { as: 'editor' });
    expect(firstError(read)).toMatchObject({ rest_code: 'venue-not-accessible' });

    const gone = (await env.ok(DELETE, { id: v.id, force: true }, { as: 'administrator' }))
      .delete_venue;
    expect(gone).toMatchObject({ id: v.id, status: 'trash' });
    expect(await env.db('venues').where({ id: v.id }).first()).toBeUndefined();
    expect((await env.db('events').where({ id: eventId }).first()).venue_id).toBeNull();
    const missing = await env.gql(DELETE, { id: v.id }, { as: 'administrator' });
    expect(firstError(missing)).toMatchObject({
      code: 'NOT_FOUND',
      rest_code: 'rest-venue-not-found',
    });
  });

  it('identifies the record by the path slug; input.slug renames it', async () => {
    await create({ venue: 'Slugged Hall' });
    const renamed = (
      await env.ok(
        UPDATE_BY_SLUG,
        { slug: 'slugged-hall', input: { slug: 'new-slug', city: 'X' } },
        { as: 'administrator' },
      )
    ).update_venue_by_slug;
    expect(renamed).toMatchObject({ slug: 'new-slug', city: 'X', venue: 'Slugged Hall' });
    const stale = await env.gql(
      UPDATE_BY_SLUG,
      { slug: 'slugged-hall', input: { city: 'Y' } },
      { as: 'administrator' },
    );
    expect(firstError(stale)).toMatchObject({ rest_code: 'rest-venue-not-found' });
    const trashed = (await env.ok(DELETE_BY_SLUG, { slug: 'new-slug' }, { as: 'administrator' }))
      .delete_venue_by_slug;
    expect(trashed).toMatchObject({ id: renamed.id, status: 'trash' });
  });

  it('answers 404 for unknown ids and slugs', async () => {
    for (const [query, variables] of [
      [READ, { id: 987654 }],
      [READ_BY_SLUG, { slug: 'no-such-venue' }],
      [UPDATE, { id: 987654, input: { city: 'X' } }],
      [DELETE, { id: 987654 }],
    ] as const) {
      expect(firstError(await env.gql(query, variables, { as: 'administrator' }))).toMatchObject({
        code: 'NOT_FOUND',
        rest_code: 'rest-venue-not-found',
      });
    }
  });

  it('shows a draft to editors only', async () => {
    const draft = await create({ venue: 'Draft Hall', status: 'draft' }, 'editor');
    const anonymous = await env.gql(READ, { id: draft.id });
    expect(firstError(anonymous)).toMatchObject({
      code: 'FORBIDDEN',
      rest_code: 'venue-not-accessible',
    });
    const bySlug = await env.gql(READ_BY_SLUG, { slug: draft.slug });
    expect(firstError(bySlug)).toMatchObject({ rest_code: 'venue-not-accessible' });
    const { venue } = await env.ok(READ, { id: draft.id }, { as: 'editor' });
    expect(venue).toMatchObject({ id: draft.id, status: 'draft' });
  });
});
