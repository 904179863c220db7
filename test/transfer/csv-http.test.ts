import { parse } from 'csv-parse/sync';
import {
  CATEGORY_COLUMNS,
  EVENT_COLUMNS,
  ORGANIZER_COLUMNS,
  VENUE_COLUMNS,
} from '../../src/transfer/csv/columns';
import { bulkImportEvents } from '../../src/transfer/bulk/import';
import { bulkCreateTerms } from '../../src/transfer/bulk/records';
import { describeEachDb } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { createSample, type Sample } from './import-support';

/**
 * CSV over HTTP: `?format=csv` or `Accept: text/csv` on the five list routes answers every
 * matching record (all pages, streamed) with the documented columns, read back with csv-parse.
 */

const BULK = 1_100; // more than two export pages of 500

function rows(text: string): Record<string, string>[] {
  return parse(text, { columns: true, bom: true }) as Record<string, string>[];
}

describeEachDb('CSV over HTTP', (env) => {
  const rest = new RestClient(env);
  let sample: Sample;

  beforeAll(async () => {
    sample = await createSample(env);
    const [bulkTag] = await bulkCreateTerms(env.db, 'tag', [{ name: 'bulk' }]);
    await bulkImportEvents(
      env.db,
      env.config,
      Array.from({ length: BULK }, (_, i) => ({
        title: `Bulk event ${i + 1}`,
        slug: `bulk-event-${i + 1}`,
        start_date: `2027-05-${String((i % 28) + 1).padStart(2, '0')} 10:00:00`,
        end_date: `2027-05-${String((i % 28) + 1).padStart(2, '0')} 11:00:00`,
        tag_ids: [bulkTag!],
      })),
      { now: env.now },
    );
  }, 60_000);

  it('answers ?format=csv on /events with every matching event, all pages', async () => {
    const response = await rest.get('/events?format=csv&tags=bulk&per_page=5&page=2');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="events.csv"');
    expect(response.headers.get('x-tec-total')).toBe(String(BULK));
    const parsed = rows(response.text);
    expect(parsed).toHaveLength(BULK);
    expect(new Set(parsed.map((r) => r.id)).size).toBe(BULK);
    expect(Object.keys(parsed[0]!)).toEqual(EVENT_COLUMNS.map((c) => c.name));
    expect(parsed[0]).toMatchObject({
      title: 'Bulk event 1',
      tags: 'bulk',
      start_date: '2027-05-01 10:00:00',
    });
  });

  it('answers Accept: text/csv the same, with the flattened venue, organizers and terms', async () => {
    const response = await rest.get('/events?search=jazz', { headers: { accept: 'text/csv' } });
    expect(response.status).toBe(200);
    const [jazz, ...others] = rows(response.text);
    expect(others).toEqual([]);
    expect(jazz).toMatchObject({
      id: String(sample.jazz.id),
      title: 'Jazz Night',
      venue: 'Main Hall',
      venue_city: 'Springfield',
      organizers: 'Acme Org; Second Crew',
      categories: 'Concerts; Music, Live',
      tags: 'jazz; late night',
      cost: '$10, $20, $30',
      description: '<p>Hello &amp; <strong>welcome</strong></p><p>Second line</p>',
    });
  });

  it('applies visibility: drafts for editors only, protected events redacted', async () => {
    const anonymous = rows((await rest.get('/events?format=csv&search=fair')).text);
    expect(anonymous).toEqual([]);
    const editor = rows((await rest.get('/events?format=csv&search=fair', { as: 'editor' })).text);
    expect(editor.map((r) => r.status)).toEqual(['draft']);
    const secret = rows((await rest.get('/events?format=csv&search=secret')).text)[0]!;
    expect(secret).toMatchObject({ title: 'Secret Gig', description: '', venue: '' });
  });

  it('answers a header line only when nothing matches, and the 400 of the list route', async () => {
    const empty = await rest.get('/events?format=csv&start_date=2035-01-01');
    expect(empty.status).toBe(200);
    expect(empty.text).toBe(`${EVENT_COLUMNS.map((c) => c.name).join(',')}\r\n`);
    expectError(await rest.get('/events?format=csv&categories=nope'), 400, 'rest_invalid_param');
    const json = await rest.get('/events?per_page=1', { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('exports venues, organizers, categories and tags', async () => {
    const venues = rows((await rest.get('/venues?format=csv')).text);
    expect(Object.keys(venues[0]!)).toEqual(VENUE_COLUMNS.map((c) => c.name));
    expect(venues).toEqual([expect.objectContaining({ venue: 'Main Hall', geo_lat: '39.7817' })]);
    const organizers = rows(
      (await rest.get('/organizers', { headers: { accept: 'text/csv' } })).text,
    );
    expect(Object.keys(organizers[0]!)).toEqual(ORGANIZER_COLUMNS.map((c) => c.name));
    expect(organizers.map((o) => o.organizer)).toEqual(['Acme Org', 'Second Crew']);
    const categories = rows((await rest.get('/categories?format=csv&hide_empty=false')).text);
    expect(Object.keys(categories[0]!)).toEqual(CATEGORY_COLUMNS.map((c) => c.name));
    expect(categories.map((c) => c.name)).toEqual(['Concerts', 'Markets', 'Music, Live']);
    const tags = rows((await rest.get('/tags?format=csv')).text);
    expect(tags.find((t) => t.name === 'bulk')).toMatchObject({ count: String(BULK) });
  });

  it('answers HEAD with the headers only', async () => {
    const head = await rest.head('/events?format=csv&tags=bulk');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('x-tec-total')).toBe(String(BULK));
  });
});
