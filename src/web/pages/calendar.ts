import { DateTime } from 'luxon';
import type { AppContext } from '../../context';
import { listEvents, type EventListArgs } from '../../events';
import { invalid, nowIn } from '../../lib';
import { listTerms } from '../../terms';
import { exportContext } from '../../transfer';
import { sitePath, type Page } from '../page';
import { eventPage as eventsPage, plainTitle, summarise, type EventSummary } from './summaries';

/**
 * `/events/`: the calendar. The list of upcoming events (the API's default window), or one
 * day's (`date=YYYY-MM-DD`), paged; or a month (`month=YYYY-MM`) as a grid of weeks. Filters by
 * category and tag (their slugs, as the API takes them). Everything is a link or a GET form, so
 * it works without JavaScript.
 */

/** The most events a month grid shows (one query); more, and the grid says so. */
const MONTH_MAX = 500;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface CalendarQuery {
  category: string;
  tag: string;
  month: string;
  date: string;
  page: number;
}

export function calendarQuery(url: URL, page: number): CalendarQuery {
  const get = (name: string) => (url.searchParams.get(name) ?? '').trim();
  const month = get('month');
  const date = get('date');
  if (month && !MONTH.test(month)) throw invalid('month', 'must be a month as YYYY-MM');
  if (date && (!DATE.test(date) || !DateTime.fromISO(date).isValid)) {
    throw invalid('date', 'must be a day as YYYY-MM-DD');
  }
  return { category: get('category'), tag: get('tag'), month, date, page };
}

/** This calendar's address with these filters (empty ones left out). */
function calendarHref(ctx: AppContext, q: Partial<CalendarQuery>): string {
  const params = new URLSearchParams();
  for (const key of ['category', 'tag', 'month', 'date'] as const) {
    const value = q[key];
    if (value) params.set(key, value);
  }
  if (q.page && q.page > 1) params.set('page', String(q.page));
  const search = params.toString();
  return `${sitePath(ctx.config, 'events/')}${search ? `?${search}` : ''}`;
}

interface MonthDay {
  day: number;
  date: string;
  events: EventSummary[];
  today: boolean;
}

/** The weeks (Monday first) of a month, each day with its events (by their start day). */
async function monthGrid(ctx: AppContext, month: string, filter: EventListArgs) {
  const first = DateTime.fromISO(`${month}-01`, { zone: 'UTC' });
  const last = first.endOf('month');
  const list = await listEvents(exportContext(ctx), {
    ...filter,
    start_date: first.toISODate(),
    end_date: last.toISODate(),
    page: 1,
    per_page: MONTH_MAX,
  });
  const events = await Promise.all(list.events.map((row) => summarise(ctx, row)));
  const today = nowIn(ctx.config.siteTimezone, ctx.now()).toISODate();
  const weeks: (MonthDay | null)[][] = [];
  let week: (MonthDay | null)[] = Array.from({ length: first.weekday - 1 }, () => null);
  for (let d = first; d <= last; d = d.plus({ days: 1 })) {
    const date = d.toISODate() ?? '';
    week.push({
      day: d.day,
      date,
      events: events.filter((e) => e.day === date),
      today: date === today,
    });
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return {
    label: first.toFormat('LLLL yyyy'),
    weeks,
    total: list.total,
    truncated: list.total > list.events.length,
    previous: first.minus({ months: 1 }).toFormat('yyyy-LL'),
    next: first.plus({ months: 1 }).toFormat('yyyy-LL'),
  };
}

async function termOptions(ctx: AppContext, taxonomy: 'category' | 'tag') {
  const { rows } = await listTerms(ctx, taxonomy, { per_page: ctx.config.perPageMax });
  return rows.map((t) => ({ slug: t.slug, name: plainTitle(t.name) }));
}

export async function calendarPage(ctx: AppContext, q: CalendarQuery): Promise<Page> {
  const filter: EventListArgs = {
    ...(q.category ? { categories: [q.category] } : {}),
    ...(q.tag ? { tags: [q.tag] } : {}),
  };
  const [categories, tags] = await Promise.all([
    termOptions(ctx, 'category'),
    termOptions(ctx, 'tag'),
  ]);
  const thisMonth = nowIn(ctx.config.siteTimezone, ctx.now()).toFormat('yyyy-LL');
  const month = q.month ? await monthGrid(ctx, q.month, filter) : null;
  const list = q.month
    ? null
    : await eventsPage(
        ctx,
        q.date ? { ...filter, start_date: q.date, end_date: q.date } : filter,
        q.page,
      );
  const href = (change: Partial<CalendarQuery>) => calendarHref(ctx, { ...q, ...change });
  const heading = month
    ? `Events in ${month.label}`
    : q.date
      ? `Events on ${DateTime.fromISO(q.date).toFormat('cccc, LLLL d, yyyy')}`
      : 'Upcoming events';
  const filtered = Boolean(q.category || q.tag || q.date || q.month || q.page > 1);
  return {
    status: 200,
    template: 'calendar',
    data: {
      heading,
      query: q,
      categories,
      tags,
      month: month && {
        ...month,
        previousHref: href({ month: month.previous, page: 1 }),
        nextHref: href({ month: month.next, page: 1 }),
        dayHref: (date: string) => href({ month: '', date, page: 1 }),
      },
      events: list,
      listHref: href({ month: '', date: '', page: 1 }),
      monthHref: href({ month: q.month || thisMonth, date: '', page: 1 }),
      pageHref: (page: number) => href({ page }),
    },
    meta: {
      title: heading,
      description: 'Upcoming events: a list, a month view, filters by category and tag.',
      canonical: `${ctx.config.siteUrl}/events/`,
      ogType: 'website',
      noindex: filtered,
    },
  };
}
