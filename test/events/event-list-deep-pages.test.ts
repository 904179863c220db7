import { setDeepOffset } from '../../src/events/store/deep-pages';
import { insertEvent, insertTerm, resetCalendar } from '../support/event-fixtures';
import { describeEachDb } from '../support/harness';
import { writeFromAnotherProcess } from '../support/other-process';
import { RestClient } from '../support/rest/rest-client';

/**
 * Deep pages (src/events/store/deep-pages.ts) start from their day, counted per write
 * generation: every page must be the page the ordinary OFFSET read answers, body and headers,
 * with filters, ties on the start time, and writes between pages.
 */
describeEachDb(
  'events list: deep pages',
  (env) => {
    const rest = new RestClient(env);
    let music = 0;

    beforeAll(async () => {
      await resetCalendar(env);
      music = await insertTerm(env, 'category', 'Music');
      // 45 events on 9 days, several at the same minute (the id breaks the tie).
      for (let i = 0; i < 45; i++) {
        const day = String(3 + (i % 9)).padStart(2, '0');
        const hour = String(10 + (i % 4)).padStart(2, '0');
        await insertEvent(env, {
          title: `Deep ${i}`,
          start: `2027-05-${day} ${hour}:00:00`,
          end: `2027-05-${day} 23:00:00`,
          categories: i % 3 ? [] : [music],
        });
      }
    });

    afterEach(() => {
      setDeepOffset(5000);
    });

    async function pages(query: string, perPage: number) {
      const out: unknown[] = [];
      for (let page = 1; ; page++) {
        const r = await rest.get(
          `/events?start_date=2027-05-01&per_page=${perPage}&page=${page}${query}`,
        );
        out.push({ status: r.status, body: r.body, total: r.headers.get('x-wp-total') });
        if (r.status !== 200) return out;
      }
    }

    it.each([
      ['', 4],
      ['', 7],
      ['&categories=music', 2],
    ])('answers every page as the ordinary read does (%s, per_page %d)', async (query, perPage) => {
      setDeepOffset(Number.MAX_SAFE_INTEGER);
      const ordinary = await pages(query, perPage);
      setDeepOffset(3);
      const deep = await pages(query, perPage);
      expect(deep).toEqual(ordinary);
      expect(ordinary.length).toBeGreaterThan(3);
    });

    it('sees a write made between two deep pages', async () => {
      setDeepOffset(3);
      const before = await rest.get('/events?start_date=2027-05-01&per_page=5&page=3');
      const id = await insertEvent(env, { title: 'Early bird', start: '2027-05-02 09:00:00' });
      const after = await rest.get('/events?start_date=2027-05-01&per_page=5&page=3');
      expect(after.body.total).toBe(before.body.total + 1);
      // One event more before the page: it starts one event earlier.
      expect(after.body.events.slice(1)).toEqual(before.body.events.slice(0, 4));
      // Another process's write moves the generation: the page read sees it.
      await writeFromAnotherProcess(env, (trx) => trx('events').where({ id }).delete());
      const again = await rest.get('/events?start_date=2027-05-01&per_page=5&page=3');
      expect(again.body).toEqual(before.body);
    });
  },
  { RESPONSE_CACHE: 'off' },
);
