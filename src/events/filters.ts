import type { AppContext } from '../context';
import type { Taxonomy } from '../db';
import { formatSql, nowIn, parseDateInput } from '../lib';
import {
  canReference,
  given,
  listStatuses,
  paging,
  Problems,
  protectedTextReaders,
  visibleStatuses,
  type Paging,
} from '../posts';
import { geoPoint, nearVenueIds } from './geo';
import type { EventListArgs } from './list-args';
import {
  findTermKeys,
  postKinds,
  type DateBound,
  type DateColumn,
  type DateOperator,
  type EventListFilter,
} from './store/event-list';

/** Turns the `events` list arguments into a SQL-ready filter and the query its links echo. */

interface ResolvedEventList {
  filter: EventListFilter;
  paged: Paging;
  /** Effective (widened or default) date values, for the links to echo. */
  dates: Map<DateParam, string>;
}

export type DateParam =
  'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';

/** Column, operator, and which end of its day a non-strict value widens to. */
const DATE_PARAMS: [DateParam, DateColumn, DateOperator, 'start' | 'end'][] = [
  ['start_date', 'start_date', '>=', 'start'],
  ['end_date', 'end_date', '<=', 'end'],
  ['starts_before', 'start_date', '<', 'end'],
  ['starts_after', 'start_date', '>', 'end'],
  ['ends_before', 'end_date', '<', 'end'],
  ['ends_after', 'end_date', '>', 'end'],
];
export const RELATIVE: DateParam[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after'];

/**
 * An empty list filters nothing (`categories=` in a query string): treat it as absent, so it
 * neither empties the result nor shows up in the links.
 */
export function withoutEmptyLists(args: EventListArgs): EventListArgs {
  const keys = ['categories', 'tags', 'venue', 'organizer', 'status', 'include'] as const;
  const out: EventListArgs = { ...args };
  for (const key of keys) if (out[key]?.length === 0) delete out[key];
  return out;
}

/**
 * Effective date values: explicit ones parsed in the site time zone (whole days unless strict),
 * and the default window for `start_date`/`end_date` unless a relative bound is given.
 * `include` ignores every date, the default window included.
 */
function resolveDates(
  ctx: AppContext,
  args: EventListArgs,
  problems: Problems,
): Map<DateParam, string> {
  const values = new Map<DateParam, string>();
  if (given(args.include)) return values;
  const zone = ctx.config.siteTimezone;
  const strict = args.strict_dates === true;
  for (const [param, , , widen] of DATE_PARAMS) {
    const raw = args[param];
    if (!given(raw)) continue;
    const dt = parseDateInput(raw, zone, ctx.now());
    if (!dt) {
      problems.add(param, `"${raw}" is not a date`);
      continue;
    }
    const day = dt.toFormat('yyyy-LL-dd');
    values.set(
      param,
      strict ? formatSql(dt) : `${day} ${widen === 'start' ? '00:00:00' : '23:59:59'}`,
    );
  }
  if (!RELATIVE.some((p) => given(args[p]))) {
    const window = defaultWindow(zone, ctx.now());
    if (!given(args.start_date)) values.set('start_date', window.start);
    if (!given(args.end_date)) values.set('end_date', window.end);
  }
  return values;
}

interface DefaultWindow {
  zone: string;
  start: string;
  end: string;
  /** The window holds from this instant (the local day's start) until `until` (the next one). */
  from: number;
  until: number;
}

let lastWindow: DefaultWindow | undefined;

/**
 * The default window, from yesterday to 24 months ahead in the site's zone: the same all day, so
 * it is worked out with luxon once per local day (it was ~2 % of a list request's CPU).
 */
function defaultWindow(zone: string, now: Date): DefaultWindow {
  const ms = now.getTime();
  const kept = lastWindow;
  if (kept && kept.zone === zone && ms >= kept.from && ms < kept.until) return kept;
  const today = nowIn(zone, now);
  lastWindow = {
    zone,
    start: `${today.minus({ days: 1 }).toFormat('yyyy-LL-dd')} 00:00:00`,
    end: `${today.plus({ months: 24 }).toFormat('yyyy-LL-dd')} 23:59:59`,
    from: today.startOf('day').toMillis(),
    until: today.startOf('day').plus({ days: 1 }).toMillis(),
  };
  return lastWindow;
}

function searchWords(search: string | null | undefined, problems: Problems): string[] {
  if (!given(search)) return [];
  const text = search.trim();
  if (text === '') {
    problems.add('search', 'must be a non-empty string');
    return [];
  }
  return text.toLowerCase().split(/\s+/);
}

/** Category/tag items: each a slug (tried first, like the reference) or a numeric id. */
async function resolveTerms(
  ctx: AppContext,
  lists: { param: 'categories' | 'tags'; taxonomy: Taxonomy; items: string[] }[],
  problems: Problems,
): Promise<{ ids: Map<string, number[]>; events: number | null }> {
  const cleaned = lists.map((l) => ({ ...l, items: l.items.map((i) => i.trim()) }));
  const keys = await findTermKeys(
    ctx.db,
    cleaned.map((l) => ({
      taxonomy: l.taxonomy,
      slugs: l.items.filter((i) => i !== '').map((i) => i.toLowerCase()),
      ids: l.items.filter((i) => /^\d+$/.test(i)).map(Number),
    })),
  );
  const out = new Map<string, number[]>();
  // The plan hint: the smaller list's published events (see `EventListFilter.termEvents`).
  let events: number | null = null;
  for (const l of cleaned) {
    const ofTaxonomy = keys.filter((k) => k.taxonomy === l.taxonomy);
    const ids: number[] = [];
    const unknown: string[] = [];
    let listEvents = 0;
    for (const item of l.items) {
      const term =
        ofTaxonomy.find((k) => k.slug.toLowerCase() === item.toLowerCase()) ??
        (/^\d+$/.test(item) ? ofTaxonomy.find((k) => k.id === Number(item)) : undefined);
      if (term) {
        if (!ids.includes(term.id)) listEvents += term.count;
        ids.push(term.id);
      } else unknown.push(item);
    }
    events = events === null ? listEvents : Math.min(events, listEvents);
    if (unknown.length)
      problems.add(
        l.param,
        `unknown ${l.taxonomy === 'tag' ? 'tag' : 'category'}: ${unknown.join(', ')}`,
      );
    out.set(l.param, [...new Set(ids)]);
  }
  return { ids: out, events };
}

/**
 * Venue, organizer and parent ids must exist as records of their kind that the caller may name
 * (`canReference`: a hidden one answers as an unknown id): one lookup for all.
 */
async function checkReferences(
  ctx: AppContext,
  args: EventListArgs,
  problems: Problems,
): Promise<void> {
  const wanted: [string, string, readonly number[]][] = [
    ['venue', 'venue', args.venue ?? []],
    ['organizer', 'organizer', args.organizer ?? []],
    ['post_parent', 'event', given(args.post_parent) ? [args.post_parent] : []],
  ];
  const ids = [...new Set(wanted.flatMap(([, , list]) => list))];
  const kinds = await postKinds(ctx.db, ids);
  const known = (id: number, type: string): boolean => {
    const kind = kinds.get(id);
    return (
      kind?.type === type && canReference(ctx, kind.status ? { status: kind.status } : undefined)
    );
  };
  for (const [param, type, list] of wanted) {
    const bad = list.filter((id) => !known(id, type));
    if (bad.length) problems.add(param, `no ${type} with id ${bad.join(', ')}`);
  }
}

export async function resolveEventFilter(
  ctx: AppContext,
  args: EventListArgs,
): Promise<ResolvedEventList> {
  const problems = new Problems();
  const paged = problems.check(() => paging(ctx.config, args.page, args.per_page));
  const dates = resolveDates(ctx, args, problems);
  const words = searchWords(args.search, problems);
  const statuses = problems.check(() => listStatuses(ctx, args.status)) ?? [];
  if (args.ticketed === true) problems.add('ticketed', 'Ticketing is not available.');
  if (args.include?.some((id) => id < 1)) problems.add('include', 'must be positive event ids');
  const point = geoPoint(args, problems);
  // Syntax first: a malformed request is answered without touching the database.
  problems.throwIfAny();

  const termLists = [
    { param: 'categories' as const, taxonomy: 'category' as const, items: args.categories ?? [] },
    { param: 'tags' as const, taxonomy: 'tag' as const, items: args.tags ?? [] },
  ].filter((l) => given(args[l.param]));
  const terms = termLists.length
    ? await resolveTerms(ctx, termLists, problems)
    : { ids: new Map<string, number[]>(), events: null };
  await checkReferences(ctx, args, problems);
  problems.throwIfAny();

  const filter: EventListFilter = {
    statuses,
    dates: DATE_PARAMS.flatMap(([param, column, op]): DateBound[] => {
      const value = dates.get(param);
      return value === undefined ? [] : [{ column, op, value }];
    }),
    searchWords: words,
    textReaders: protectedTextReaders(ctx),
    categoryIds: terms.ids.get('categories') ?? null,
    tagIds: terms.ids.get('tags') ?? null,
    venueIds: given(args.venue) ? args.venue : null,
    organizerIds: given(args.organizer) ? args.organizer : null,
    featured: given(args.featured) ? args.featured : null,
    include: given(args.include) ? [...new Set(args.include)] : null,
    parentId: given(args.post_parent) ? args.post_parent : null,
    venueWithCoords: args.geoloc === true,
    venueStatuses: visibleStatuses(ctx),
    nearVenueIds: point ? await nearVenueIds(ctx, point) : null,
    termEvents: terms.events,
  };
  return { filter, paged: paged as Paging, dates };
}
