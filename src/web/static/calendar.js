/*
 * The upcoming-events page (served at / by src/web/plugin.ts). Plain browser JavaScript, no
 * dependencies, no build step. It reads the public REST API of this server
 * ({API_ROOT}/calendar/events/v1, given in <meta name="calendar-api">): the events list with the
 * filters of the form, paged through the list's next_rest_url / previous_rest_url, and the
 * categories for the category filter. Every piece of data goes into the page as text
 * (textContent / Text nodes), never as HTML.
 */
/* global document, DOMParser, fetch, history, location, setTimeout, URL, URLSearchParams */
'use strict';

(function () {
  const api = document.querySelector('meta[name="calendar-api"]').getAttribute('content');
  const form = document.getElementById('filters');
  const list = document.getElementById('events');
  const status = document.getElementById('status');
  const errorBox = document.getElementById('error');
  const heading = document.getElementById('results-heading');
  const prev = document.getElementById('prev');
  const next = document.getElementById('next');
  const pageInfo = document.getElementById('page-info');
  const categorySelect = document.getElementById('f-category');

  /** Form fields, also kept in the page's own query string so a filtered view can be shared. */
  const FIELDS = ['search', 'categories', 'start_date', 'end_date', 'per_page'];
  const DEFAULT_PER_PAGE = '10';

  let links = { next: null, previous: null };
  let generation = 0;

  /** An element with attributes and children; strings become Text nodes (never parsed). */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    for (const child of children || []) {
      if (child !== null && child !== undefined && child !== '') node.append(child);
    }
    return node;
  }

  // Dates: the API gives wall-clock times in the event's own time zone ("2027-03-10 19:00:00")
  // with the zone's abbreviation; they are shown as they are, formatted, never converted.
  const dayFormat = new Intl.DateTimeFormat('en', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  const timeFormat = new Intl.DateTimeFormat('en', {
    timeZone: 'UTC',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });

  function wallClock(text) {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?/.exec(text || '');
    if (!m) return null;
    return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] || 0), +(m[5] || 0)));
  }

  function isoUtc(text) {
    return text ? `${text.replace(' ', 'T')}Z` : '';
  }

  function whenText(event) {
    const start = wallClock(event.start_date);
    const end = wallClock(event.end_date) || start;
    if (!start) return '';
    const sameDay = (event.start_date || '').slice(0, 10) === (event.end_date || '').slice(0, 10);
    if (event.all_day) {
      return sameDay
        ? `${dayFormat.format(start)}, all day`
        : `${dayFormat.format(start)} – ${dayFormat.format(end)}, all day`;
    }
    const zone = event.timezone_abbr || event.timezone || '';
    const range = sameDay
      ? `${dayFormat.format(start)}, ${timeFormat.format(start)} – ${timeFormat.format(end)}`
      : `${dayFormat.format(start)}, ${timeFormat.format(start)} – ${dayFormat.format(end)}, ${timeFormat.format(end)}`;
    return zone ? `${range} ${zone}` : range;
  }

  // Titles and names arrive rendered as WordPress renders them (`&#8217;`, `&#038;`, `&lt;`):
  // decoded once, as text: DOMParser builds an inert document (no script runs, nothing loads)
  // and only its text is kept.
  const parser = new DOMParser();
  function decoded(rendered) {
    return parser.parseFromString(String(rendered), 'text/html').documentElement.textContent;
  }

  function venueText(venue) {
    // The API answers [] for an event without a venue.
    if (!venue || Array.isArray(venue) || !venue.venue) return '';
    return [decoded(venue.venue), venue.city, venue.stateprovince || venue.state, venue.country]
      .filter((part) => typeof part === 'string' && part.trim() !== '')
      .join(', ');
  }

  function renderEvent(event) {
    const details = [];
    details.push(
      el('p', { class: 'when' }, [
        el('time', { datetime: isoUtc(event.utc_start_date) }, [whenText(event)]),
      ]),
    );
    const venue = venueText(event.venue);
    if (venue) {
      details.push(
        el('p', { class: 'venue' }, [el('span', { class: 'label' }, ['Venue: ']), venue]),
      );
    }
    if (event.cost) {
      details.push(
        el('p', { class: 'cost' }, [el('span', { class: 'label' }, ['Cost: ']), event.cost]),
      );
    }
    const categories = Array.isArray(event.categories) ? event.categories : [];
    if (categories.length) {
      details.push(
        el(
          'ul',
          { class: 'categories', 'aria-label': 'Categories' },
          categories.map((c) => el('li', {}, [String(c.name)])),
        ),
      );
    }
    return el('li', { class: 'event', 'data-event-id': String(event.id) }, [
      el('article', {}, [
        el('h3', { class: 'title' }, [event.title ? decoded(event.title) : '(untitled)']),
        ...details,
      ]),
    ]);
  }

  /** The form's values (empty ones left out). */
  function formValues() {
    const values = new URLSearchParams();
    for (const name of FIELDS) {
      const value = (form.elements[name].value || '').trim();
      if (value !== '' && !(name === 'per_page' && value === DEFAULT_PER_PAGE)) {
        values.set(name, value);
      }
    }
    return values;
  }

  /** The page's query (form values, page) → the API's: dates become whole-day bounds. */
  function apiQuery(values) {
    const query = new URLSearchParams();
    for (const [name, value] of values) {
      if (name === 'start_date') query.set(name, `${value} 00:00:00`);
      else if (name === 'end_date') query.set(name, `${value} 23:59:59`);
      else query.set(name, value);
    }
    if (!query.has('per_page')) query.set('per_page', DEFAULT_PER_PAGE);
    return query;
  }

  /** The page's own query string after following an API link (its page number, mainly). */
  function pageQueryOf(apiSearch) {
    const values = formValues();
    const page = new URLSearchParams(apiSearch).get('page');
    if (page && page !== '1') values.set('page', page);
    return values;
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  async function fetchJson(url) {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    if (!response.ok) {
      const message = body && typeof body.message === 'string' ? body.message : response.statusText;
      throw new Error(`The events could not be loaded (${response.status}): ${message}`);
    }
    return body;
  }

  /** Loads one page of events; `search` is the API's query string, `pageQuery` the page's own. */
  async function load(search, pageQuery, { focus = false } = {}) {
    const mine = ++generation;
    list.setAttribute('aria-busy', 'true');
    errorBox.hidden = true;
    status.textContent = 'Loading events…';
    const own = pageQuery.toString();
    history.replaceState(null, '', own ? `?${own}` : location.pathname);
    let body;
    try {
      body = await fetchJson(`${api}/events?${search}`);
    } catch (error) {
      if (mine !== generation) return;
      list.replaceChildren();
      links = { next: null, previous: null };
      updatePager(0, 0, 0);
      status.textContent = '';
      showError(error.message);
      list.setAttribute('aria-busy', 'false');
      return;
    }
    if (mine !== generation) return;
    const events = Array.isArray(body.events) ? body.events : [];
    list.replaceChildren(...events.map(renderEvent));
    links = { next: body.next_rest_url || null, previous: body.previous_rest_url || null };
    const total = Number(body.total) || 0;
    const pages = Number(body.total_pages) || 0;
    const page = Number(new URLSearchParams(search).get('page')) || 1;
    updatePager(page, pages, total);
    status.textContent =
      total === 0
        ? 'No upcoming events match these filters.'
        : `${total} event${total === 1 ? '' : 's'} found.`;
    list.setAttribute('aria-busy', 'false');
    if (focus) heading.focus();
  }

  function updatePager(page, pages, total) {
    prev.disabled = !links.previous;
    next.disabled = !links.next;
    pageInfo.textContent = pages > 1 ? `Page ${page} of ${pages} (${total} events)` : '';
  }

  /** Follows a next/previous link of the API: its query, on this page's own API address. */
  function follow(link) {
    if (!link) return;
    const search = new URL(link, location.href).search.replace(/^\?/, '');
    load(search, pageQueryOf(search), { focus: true });
  }

  async function loadCategories(selected) {
    try {
      const body = await fetchJson(`${api}/categories?per_page=50`);
      const categories = Array.isArray(body.categories) ? body.categories : [];
      for (const category of categories) {
        const option = el('option', { value: String(category.slug) }, [String(category.name)]);
        categorySelect.append(option);
      }
      if (selected) categorySelect.value = selected;
    } catch {
      // The list of events still works without the category filter's choices.
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values = formValues();
    load(apiQuery(values).toString(), values);
  });
  form.addEventListener('reset', () => {
    // After the browser has reset the fields.
    setTimeout(() => {
      const values = formValues();
      load(apiQuery(values).toString(), values);
    });
  });
  prev.addEventListener('click', () => follow(links.previous));
  next.addEventListener('click', () => follow(links.next));

  // First load: the filters of the page's query string, if any.
  const initial = new URLSearchParams(location.search);
  const perPage = initial.get('per_page');
  const perPageSelect = form.elements.per_page;
  if (
    perPage &&
    /^\d{1,3}$/.test(perPage) &&
    !perPageSelect.querySelector(`option[value="${perPage}"]`)
  ) {
    // A shared address may ask for a page size the menu does not offer.
    perPageSelect.append(el('option', { value: perPage }, [perPage]));
  }
  for (const name of FIELDS) {
    const value = initial.get(name);
    if (value !== null && name !== 'categories') form.elements[name].value = value;
  }
  const values = formValues();
  const firstCategory = initial.get('categories') || '';
  if (firstCategory) values.set('categories', firstCategory);
  const page = initial.get('page');
  const query = apiQuery(values);
  if (page && /^\d+$/.test(page)) {
    query.set('page', page);
    values.set('page', page);
  }
  // The category option exists only once the categories have loaded.
  loadCategories(firstCategory);
  load(query.toString(), values);
})();
