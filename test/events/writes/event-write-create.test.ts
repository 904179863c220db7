import { describeEachDb } from '../../support/harness';
import { useImageServer } from '../../support/image-server';
import {
  CREATE,
  createEvent,
  minimal,
  rejected,
  rejectedParams,
  storedEvent,
  uniqueTitle,
} from './event-write-support';

describeEachDb('create_event: scalar fields', (env) => {
  const images = useImageServer();
  it('creates a minimal event with every default', async () => {
    const title = uniqueTitle('Minimal');
    const event = await createEvent(env, {
      title,
      start_date: '2030-01-01 10:00:00',
      end_date: '2030-01-01 12:00:00',
    });
    expect(event).toMatchObject({
      title,
      status: 'publish',
      timezone: 'UTC',
      all_day: false,
      start_date: '2030-01-01 10:00:00',
      end_date: '2030-01-01 12:00:00',
      utc_start_date: '2030-01-01 10:00:00',
      utc_end_date: '2030-01-01 12:00:00',
    });
    const admin = await env.db('users').where({ login: 'admin' }).first();
    expect(await storedEvent(env, event.id)).toMatchObject({
      slug: event.slug,
      author_id: Number(admin.id),
      description: '',
      excerpt: '',
      date: '2026-11-21 08:00:00',
      date_utc: '2026-11-21 08:00:00',
      modified: '2026-11-21 08:00:00',
      modified_utc: '2026-11-21 08:00:00',
      password: '',
      image_id: null,
      cost: '',
      currency_symbol: '',
      currency_position: '',
      website: '',
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      venue_id: null,
      parent_id: null,
    });
    expect(event.slug).toBe(title.toLowerCase().replace(/ /g, '-'));
  });

  it('stores every scalar field given', async () => {
    const parent = await createEvent(env, minimal());
    const editor = await env.userId('editor');
    const event = await createEvent(env, {
      ...minimal({ title: uniqueTitle('Full') }),
      description: '<p>Jazz <script>alert(1)</script><strong>night</strong></p>',
      excerpt: '<em>Jazz!</em>',
      slug: 'Full Custom Slug',
      author: editor,
      date: '2026-11-01 09:00:00',
      date_utc: '2026-11-01 10:00:00',
      status: 'draft',
      image: images.url('/full-create.png'),
      cost: '$15',
      website: 'https://jazz.example.com',
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      password: 's3cret',
      post_parent: parent.id,
    });
    expect(event).toMatchObject({ slug: 'full-custom-slug', status: 'draft' });
    const row = await storedEvent(env, event.id);
    const image = await env.db('images').where({ url: images.url('/full-create.png') });
    expect(image).toHaveLength(1);
    expect(row).toMatchObject({
      description: '<p>Jazz <strong>night</strong></p>',
      excerpt: '<em>Jazz!</em>',
      author_id: editor,
      // date_utc wins over date; `date` is stored in the site time zone (UTC here).
      date: '2026-11-01 10:00:00',
      date_utc: '2026-11-01 10:00:00',
      image_id: Number(image[0].id),
      cost: '$15',
      currency_symbol: '$',
      currency_position: 'prefix',
      website: 'https://jazz.example.com',
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      password: 's3cret',
      parent_id: parent.id,
    });
  });

  it('reads dates in the event time zone and derives UTC', async () => {
    const ny = await createEvent(env, {
      title: uniqueTitle('NY'),
      timezone: 'America/New_York',
      start_date: '2027-01-10 10:00',
      end_date: '2027-01-10T17:00:00Z',
    });
    expect(ny).toMatchObject({
      timezone: 'America/New_York',
      start_date: '2027-01-10 10:00:00',
      utc_start_date: '2027-01-10 15:00:00',
      end_date: '2027-01-10 12:00:00',
      utc_end_date: '2027-01-10 17:00:00',
    });
    // "now" is 2026-11-21 03:00 in New York, so tomorrow is the 22nd there.
    const relative = await createEvent(env, {
      title: uniqueTitle('Relative'),
      timezone: 'America/New_York',
      start_date: 'tomorrow 9am',
      end_date: 'tomorrow 11am',
    });
    expect(relative).toMatchObject({
      start_date: '2026-11-22 09:00:00',
      utc_start_date: '2026-11-22 14:00:00',
      end_date: '2026-11-22 11:00:00',
      utc_end_date: '2026-11-22 16:00:00',
    });
    const utc = await createEvent(env, minimal({ timezone: 'UTC' }));
    expect(utc.timezone).toBe('UTC');
  });

  it('accepts UTC offsets and normalises zone spelling', async () => {
    const offset = await createEvent(env, minimal({ timezone: 'utc+5:30' }));
    expect(offset).toMatchObject({
      timezone: 'UTC+5:30',
      start_date: '2027-01-10 10:00:00',
      utc_start_date: '2027-01-10 04:30:00',
    });
    const lower = await createEvent(env, minimal({ timezone: 'america/new_york' }));
    expect(lower).toMatchObject({
      timezone: 'America/New_York',
      utc_start_date: '2027-01-10 15:00:00',
    });
    expect((await createEvent(env, minimal({ timezone: 'utc' }))).timezone).toBe('UTC');
    // An explicit empty time zone is the site's.
    expect((await createEvent(env, minimal({ timezone: '' }))).timezone).toBe('UTC');
    await rejectedParams(env, CREATE, { input: minimal({ timezone: 'UTC+15' }) }, ['timezone']);
  });

  it('reads `date` in the event time zone and stores it in the site zone', async () => {
    const event = await createEvent(env, {
      ...minimal({ timezone: 'America/New_York' }),
      date: '2026-11-01 09:00:00',
    });
    expect(await storedEvent(env, event.id)).toMatchObject({
      date: '2026-11-01 14:00:00',
      date_utc: '2026-11-01 14:00:00',
    });
  });

  it('rounds all-day events to whole days, multi-day kept', async () => {
    const event = await createEvent(env, {
      title: uniqueTitle('All day'),
      all_day: true,
      timezone: 'Europe/Paris',
      start_date: '2027-02-01 10:30:00',
      end_date: '2027-02-03 08:00:00',
    });
    expect(event).toMatchObject({
      all_day: true,
      start_date: '2027-02-01 00:00:00',
      end_date: '2027-02-03 23:59:59',
      utc_start_date: '2027-01-31 23:00:00',
      utc_end_date: '2027-02-03 22:59:59',
    });
  });

  it('rejects an end before the start, changing nothing', async () => {
    const params = await rejectedParams(
      env,
      CREATE,
      { input: minimal({ start_date: '2027-01-10 12:00:00', end_date: '2027-01-10 11:59:59' }) },
      ['end_date'],
    );
    expect(params.end_date).toMatch(/before/);
  });

  it('lists every missing required field, null counting as missing', async () => {
    const all = await rejected(env, CREATE, { input: {} });
    expect(all).toMatchObject({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_missing_callback_param',
      params: ['title', 'start_date', 'end_date'],
    });
    const dates = await rejected(env, CREATE, { input: { title: 'x', start_date: null } });
    expect(dates.params).toEqual(['start_date', 'end_date']);
    // Missing fields are reported before invalid ones.
    const first = await rejected(env, CREATE, {
      input: { title: '', website: 'foo', end_date: 'garbage' },
    });
    expect(first).toMatchObject({
      rest_code: 'rest_missing_callback_param',
      params: ['start_date'],
    });
  });

  it('rejects empty or unparsable required fields, naming each', async () => {
    const params = await rejectedParams(
      env,
      CREATE,
      { input: { title: '  ', start_date: '', end_date: 'not a date at all' } },
      ['title', 'start_date', 'end_date'],
    );
    expect(params.title).toMatch(/non-empty/);
  });

  const invalidValues: [string, unknown][] = [
    ['website', 'foo'],
    ['website', 'ftp://files.example.com'],
    ['author', 999999],
    ['author', null],
    ['image', 'foo bar'],
    ['image', '999999'],
    ['timezone', 'Mars/Olympus_Mons'],
    ['status', 'trash'],
    ['date', 'foo'],
    ['date_utc', 'foo'],
    ['cost', true],
    ['cost', { amount: 5 }],
    ['cost', ['5', ['6']]],
    ['post_parent', 999999],
    ['slug', '!!!'],
    ['title', 'x'.repeat(501)],
  ];
  for (const [name, value] of invalidValues) {
    const shown = JSON.stringify(value).slice(0, 40);
    it(`rejects ${name} = ${shown}, changing nothing`, async () => {
      await rejectedParams(env, CREATE, { input: minimal({ [name]: value }) }, [name]);
    });
  }

  it('reports several invalid fields at once, storing no image for a valid image URL', async () => {
    const input = minimal({
      website: 'foo',
      author: 999999,
      image: images.url('/never-stored.png'),
    });
    await rejectedParams(env, CREATE, { input }, ['website', 'author']);
  });

  it('generates unique slugs from the title, and from a requested slug', async () => {
    const title = uniqueTitle('Slug Test');
    const base = title.toLowerCase().replace(/ /g, '-');
    const first = await createEvent(env, minimal({ title }));
    const second = await createEvent(env, minimal({ title }));
    const third = await createEvent(env, minimal({ title: 'Other', slug: base }));
    expect([first.slug, second.slug, third.slug]).toEqual([base, `${base}-2`, `${base}-3`]);
    const accented = await createEvent(env, minimal({ title: `Crème Brûlée ${title}` }));
    expect(accented.slug).toBe(`creme-brulee-${base}`);
  });

  it('stores cost text and infers the currency from it', async () => {
    const cases: [unknown, string, string, string][] = [
      ['20$', '20$', '$', 'postfix'],
      ['15€', '15€', '€', 'postfix'],
      ['$15', '$15', '$', 'prefix'],
      [['0$', '20$', '30$'], '0$, 20$, 30$', '$', 'postfix'],
      [15, '15', '', ''],
      [['Free', 10], 'Free, 10', '', ''],
      ['Free', 'Free', '', ''],
      [[], '', '', ''],
    ];
    for (const [cost, text, symbol, position] of cases) {
      const event = await createEvent(env, minimal({ cost }));
      expect(await storedEvent(env, event.id)).toMatchObject({
        cost: text,
        currency_symbol: symbol,
        currency_position: position,
      });
    }
  });

  it('scales a contributor back: publish → pending, no status → draft', async () => {
    const asked = await createEvent(env, minimal({ status: 'publish' }), 'contributor');
    expect(asked.status).toBe('pending');
    const omitted = await createEvent(env, minimal(), 'contributor');
    expect(omitted.status).toBe('draft');
    const contributor = await env.userId('contributor');
    expect((await storedEvent(env, asked.id)).author_id).toBe(contributor);
    const author = await createEvent(env, minimal({ status: 'publish' }), 'author');
    expect(author.status).toBe('publish');
  });

  it('refuses subscribers, changing nothing', async () => {
    const ext = await rejected(env, CREATE, { input: minimal() }, 'subscriber');
    expect(ext).toMatchObject({ code: 'FORBIDDEN', rest_code: 'rest_forbidden' });
    // Validation comes first: bad input is a 400 even for callers who may not write.
    await rejectedParams(
      env,
      CREATE,
      { input: minimal({ website: 'foo' }) },
      ['website'],
      'subscriber',
    );
  });
});
