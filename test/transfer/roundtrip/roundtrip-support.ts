import type { TestEnv } from '../../support/harness';
import { RestClient } from '../../support/rest/rest-client';

/** What the round-trip suites share: a calendar with hostile names, and a REST dump of it. */

const CREATE = `mutation ($input: EventInput!) { create_event(input: $input) { id global_id } }`;

/** Names that break naive CSV, iCalendar or spreadsheet handling. */
export const HOSTILE = {
  titles: [
    `"Quoted", with commas, and 'apostrophes'`,
    '=HYPERLINK("http://evil.example","click")',
    '+1 (555) 0100 hotline',
    '-minus first',
    '@mention night',
    "'=already quoted",
    'Two\nlines',
    'Концерт в Москве',
    '音楽祭 東京 2027',
    'مهرجان الموسيقى',
    '🎉 Party 🎶 night 👩‍👩‍👧',
  ],
  venues: [
    'Café "Zur Linde", Saal 2',
    '=Venue()',
    '東京ドーム',
    '🎪 Big Top',
    "O'Hare; Terminal 5",
  ],
  organizers: [
    "O'Brien & Sons, Ltd.",
    '-Minus Crew',
    '@Handle',
    'Ансамбль «Весна»',
    '🎸 Band; the loud one',
  ],
  categories: ['Music, Live', '"Quoted"', '=cat', 'Музыка', '🎵 Sound'],
  tags: ['late night', '+plus', '日本', '🍕 food', 'semi;colon'],
};

/**
 * One event per hostile title, each with a hostile venue, organizers, categories and tags,
 * description and excerpt, through the real write path (GraphQL `create_event`).
 */
export async function createHostile(env: TestEnv): Promise<number[]> {
  const ids: number[] = [];
  const at = <T>(list: T[], i: number) => list[i % list.length]!;
  for (const [i, title] of HOSTILE.titles.entries()) {
    const day = String(1 + i).padStart(2, '0');
    const input = {
      title,
      description: `<p>${title.replace(/&/g, '&amp;').replace(/</g, '&lt;')} — "quotes", commas, ; semicolons</p>`,
      excerpt: i % 2 ? `=SUM(A${i}) excerpt` : '',
      start_date: `2027-05-${day} 18:00:00`,
      end_date: `2027-05-${day} 21:30:00`,
      timezone: at(['Europe/Berlin', 'Asia/Tokyo', 'America/Sao_Paulo', 'UTC'], i),
      cost: at(['10, 20', 'Free', '€5', ''], i),
      venue: {
        venue: at(HOSTILE.venues, i),
        address: '1 "Main" St, Floor 2',
        city: at(['Zürich', '東京', '=City'], i),
        phone: '+41 44 000 00 00',
      },
      organizer: [
        { organizer: at(HOSTILE.organizers, i), email: `o${i % 5}@example.org` },
        { organizer: at(HOSTILE.organizers, i + 2) },
      ],
      categories: [at(HOSTILE.categories, i), at(HOSTILE.categories, i + 1)],
      tags: [at(HOSTILE.tags, i), at(HOSTILE.tags, i + 3)],
      featured: i % 3 === 0,
    };
    const made = await env.ok(CREATE, { input }, { as: 'administrator' });
    ids.push((made.create_event as { id: number }).id);
  }
  return ids;
}

/** Every id of a table, ascending. */
async function idsOf(env: TestEnv, table: string, where: Record<string, string> = {}) {
  return (await env.db(table).where(where).orderBy('id').pluck('id')).map(Number);
}

/**
 * Every record as the REST contract shows it to an administrator — each event (hidden and
 * protected ones included), venue, organizer, category and tag read by id — with its status.
 */
export async function restDump(env: TestEnv): Promise<Record<string, unknown>> {
  const rest = new RestClient(env);
  const read = async (path: string) => {
    const answer = await rest.get(path, { as: 'administrator' });
    return { status: answer.status, body: answer.body as unknown };
  };
  const dump: Record<string, unknown> = {};
  const collections: [string, string, Record<string, string>][] = [
    ['events', 'events', {}],
    ['venues', 'venues', {}],
    ['organizers', 'organizers', {}],
    ['categories', 'terms', { taxonomy: 'category' }],
    ['tags', 'terms', { taxonomy: 'tag' }],
  ];
  for (const [path, table, where] of collections) {
    for (const id of await idsOf(env, table, where)) {
      dump[`${path}/${id}`] = await read(`/${path}/${id}`);
    }
  }
  return dump;
}
