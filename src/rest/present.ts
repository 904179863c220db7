import type { PresenterName } from './routes';

/**
 * GraphQL results → REST bodies. Keys keep the selection order, which graphql-jit's results have
 * (the SDL's field order is the contract's key order); this module only applies the reference's
 * declared wire quirks (docs/contract.md §4, §5): `image: false` and `venue: []` on events,
 * empty-key stripping on venues and organizers, the two term shapes, `json_ld` only where computed,
 * optional list links. Titles, names, descriptions and excerpts arrive rendered already: the
 * operation selects their `*_rendered` fields under the raw names (compile.ts, `RENDERED_AS`).
 */

type Json = Record<string, unknown>;

export function present(name: PresenterName, value: unknown): unknown {
  const data = value as Json;
  switch (name) {
    case 'event':
      return event(data);
    case 'venue':
      return venue(data);
    case 'organizer':
      return organizer(data);
    case 'category':
      return term(data, true);
    case 'tag':
      return term(data, false);
    case 'eventList':
      return list(data, 'events', event);
    case 'venueList':
      return list(data, 'venues', venue);
    case 'organizerList':
      return list(data, 'organizers', organizer);
    case 'categoryList':
      return list(data, 'categories', (t) => term(t, true));
    case 'tagList':
      return list(data, 'tags', (t) => term(t, false));
  }
}

/*
 * The execution result is fresh per request and only serialised after this: objects are
 * rewritten in place (no copy per event, less garbage). A key to leave out becomes `undefined`,
 * which JSON.stringify omits, rather than being deleted (a delete turns the object into a slow
 * dictionary for the serialiser).
 */

function list(data: Json, key: string, item: (row: Json) => Json): Json {
  for (const k in data) {
    const v = data[k];
    if (k === key) data[k] = (v as Json[]).map(item);
    else if (v === null) data[k] = undefined; // next_rest_url / previous_rest_url only when present
  }
  return data;
}

function event(data: Json): Json {
  for (const k in data) {
    const v = data[k];
    if (k === 'image') data[k] = v === null ? false : image(v as Json);
    else if (k === 'venue') data[k] = v === null ? [] : venue(v as Json);
    else if (k === 'organizer') data[k] = ((v as Json[] | null) ?? []).map(organizer);
    else if (k === 'categories') data[k] = ((v as Json[] | null) ?? []).map(nestedTerm);
    else if (k === 'tags') data[k] = ((v as Json[] | null) ?? []).map(nestedTerm);
    else if (k === 'json_ld' && v === null) data[k] = undefined; // single reads only
  }
  return data;
}

function image(data: Json): Json {
  for (const k in data) if (data[k] === null) data[k] = undefined;
  return data;
}

/** Keys venues and organizers always carry, even when empty. */
const KEPT = new Set(['show_map', 'show_map_link', 'global_id', 'global_id_lineage']);

function isEmpty(value: unknown): boolean {
  return value === null || value === '' || value === '0' || value === false;
}

/** Venues and organizers drop empty values (`""`, `"0"`, `false`, no image, author 0). */
function stripped(data: Json): Json {
  for (const k in data) {
    const v = data[k];
    if (KEPT.has(k)) continue;
    if (isEmpty(v)) data[k] = undefined;
    else if (k === 'image') data[k] = image(v as Json);
  }
  return data;
}

const venue = stripped;
const organizer = stripped;

function urls(data: Json): Json {
  const u = data.urls as Json;
  return u.up === null || u.up === undefined
    ? { self: u.self, collection: u.collection }
    : { self: u.self, collection: u.collection, up: u.up };
}

/**
 * The keys of a category or tag inside an event (`nestedTerm`); the REST operations select no
 * other field there (src/rest/compile.ts), so nothing is computed to be dropped.
 */
export const NESTED_TERM_KEYS: readonly string[] = [
  'name',
  'slug',
  'term_group',
  'term_taxonomy_id',
  'taxonomy',
  'description',
  'parent',
  'count',
  'filter',
  'id',
  'urls',
];

/** A category or tag inside an event: WordPress's raw term shape. */
function nestedTerm(data: Json): Json {
  return {
    name: data.name,
    slug: data.slug,
    term_group: data.term_group,
    term_taxonomy_id: data.term_taxonomy_id,
    taxonomy: data.taxonomy,
    description: data.description,
    parent: data.parent ?? 0,
    count: data.count,
    filter: data.filter,
    id: data.id,
    urls: urls(data),
  };
}

/** A category or tag from `/categories` or `/tags`; only categories have `parent`. */
function term(data: Json, isCategory: boolean): Json {
  return {
    id: data.id,
    count: data.count,
    description: data.description,
    name: data.name,
    slug: data.slug,
    taxonomy: data.taxonomy,
    ...(isCategory ? { parent: data.parent ?? 0 } : {}),
    meta: data.meta,
    url: data.url,
    urls: urls(data),
  };
}
