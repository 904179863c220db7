import { icsFeed } from '../../src/transfer/ics/feed';
import {
  exportContext,
  fetchPage,
  remainingPages,
  type ExportEvent,
} from '../../src/transfer/export-source';
import { insertEvent, resetCalendar } from '../support/event-fixtures';
import { describeEachDb, type SentQuery, type TestEnv } from '../support/harness';

/**
 * Exports read keyset pages (issue 16, item 2): after the first page, each page of the events
 * list continues strictly after the last row of the page before (`start_date`, then `id`), so
 * no page reads the rows before it (no OFFSET), and events created or deleted between two pages
 * neither repeat nor skip the events present throughout.
 */

/** The SQL of the events list's page queries run while `work` runs. */
async function pageQueries(env: TestEnv, work: () => Promise<void>): Promise<SentQuery[]> {
  // The page's ids are a derived table named `page` (`eventPageQuery`).
  return (await env.queriesOf(work)).filter((q) => / as [`"]page[`"]/.test(q.sql));
}

const SEEK = /[`"]events[`"]\.[`"]start_date[`"] > \?/;

/** No page skips rows: no OFFSET, or OFFSET 0 (knex binds it last). */
function expectNoOffset(query: SentQuery): void {
  if (/\boffset\b/i.test(query.sql)) expect(query.bindings[query.bindings.length - 1]).toBe(0);
}

const day = (n: number) => `2027-03-${String(n).padStart(2, '0')} 10:00:00`;

async function seed(env: TestEnv, count: number, title = 'Gig'): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    // Pairs share a start, so the id breaks the tie.
    ids.push(await insertEvent(env, { title: `${title} ${i}`, start: day(10 + (i >> 1)) }));
  }
  return ids;
}

async function reader(env: TestEnv) {
  return exportContext(await env.context('administrator'));
}

async function exportAll(env: TestEnv, perPage: number): Promise<ExportEvent[]> {
  const ctx = await reader(env);
  const first = await fetchPage(ctx, 'events', {}, 1, perPage);
  const out: ExportEvent[] = [];
  for await (const page of remainingPages(ctx, 'events', {}, first, perPage)) out.push(...page);
  return out;
}

describeEachDb('exports read keyset pages', (env) => {
  beforeEach(() => resetCalendar(env));

  it('seeks after the last row of each page, never past skipped rows', async () => {
    await seed(env, 9);
    await insertEvent(env, { title: 'Hidden', start: day(11), hide_from_listings: true });
    await insertEvent(env, { title: 'Draft', start: day(11), status: 'draft' });
    const whole = (await fetchPage(await reader(env), 'events', {}, 1, 500)).items;
    let paged: ExportEvent[] = [];
    const queries = await pageQueries(env, async () => {
      paged = await exportAll(env, 2);
    });
    // The same events in the same order as one page: the filters are the list's.
    expect(paged).toEqual(whole);
    expect(paged.map((e) => e.title)).not.toContain('Hidden');
    expect(paged.map((e) => e.title)).toContain('Draft');
    expect(queries.length).toBeGreaterThanOrEqual(5);
    queries.forEach(expectNoOffset);
    expect(SEEK.test(queries[0]!.sql)).toBe(false);
    for (const query of queries.slice(1)) expect(query.sql).toMatch(SEEK);
  });

  it('keeps the visibility of the caller on every page', async () => {
    await seed(env, 5);
    await insertEvent(env, { title: 'Draft', start: day(11), status: 'draft' });
    const ctx = exportContext(await env.context('anonymous'));
    const first = await fetchPage(ctx, 'events', {}, 1, 2);
    const titles: string[] = [];
    for await (const page of remainingPages(ctx, 'events', {}, first, 2)) {
      titles.push(...page.map((e) => e.title));
    }
    expect(titles).toEqual(['Gig 0', 'Gig 1', 'Gig 2', 'Gig 3', 'Gig 4']);
  });

  it('neither repeats nor skips events when others are written between pages', async () => {
    const ids = await seed(env, 10);
    const ctx = await reader(env);
    const first = await fetchPage(ctx, 'events', {}, 1, 2);
    const pages = remainingPages(ctx, 'events', {}, first, 2);
    const seen: number[] = [];
    const take = async () => {
      const next = await pages.next();
      if (!next.done) seen.push(...next.value.map((e) => e.id));
      return !next.done;
    };
    await take();
    // Deleting listed events would shift numbered pages back (a skip)...
    await env.db('events').whereIn('id', ids.slice(0, 2)).delete();
    await take();
    // ...creating earlier ones, forward (a repeat); later ones are listed in their place.
    await insertEvent(env, { title: 'Early', start: day(1) });
    await insertEvent(env, { title: 'Early too', start: day(2) });
    await insertEvent(env, { title: 'Early three', start: day(3) });
    const late = await insertEvent(env, { title: 'Late', start: day(28) });
    while (await take());
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...ids, late]);
  });

  it('reads the iCalendar feed in keyset pages', async () => {
    const rows = Array.from({ length: 230 }, (_, i) => i);
    for (const i of rows) await insertEvent(env, { title: `Feed ${i}`, start: day(1 + (i % 28)) });
    const ctx = exportContext(await env.context('anonymous'));
    let text = '';
    const queries = await pageQueries(env, async () => {
      const feed = await icsFeed(ctx, {}, 1000, 'test');
      for await (const chunk of feed.chunks()) text += chunk;
    });
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(230);
    expect(queries).toHaveLength(3);
    queries.forEach(expectNoOffset);
    for (const query of queries.slice(1)) expect(query.sql).toMatch(SEEK);
  });
});
