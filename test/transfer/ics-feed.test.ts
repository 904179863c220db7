import ICAL from 'ical.js';
import { describeEachDb } from '../support/harness';
import { RestClient, expectError } from '../support/rest/rest-client';
import { createSample, type Sample } from './import-support';

/**
 * The iCalendar feeds `{api_root}/calendar/events/v1/events.ics` and `/events/<id>.ics`,
 * validated with ical.js: the same filters and visibility as `GET /events`, time zones through
 * VTIMEZONE, all-day events as DATE values, venue, organizer, categories, URL, UID.
 */

interface Parsed {
  calendar: ICAL.Component;
  events: Map<string, ICAL.Component>;
}

function parseCalendar(text: string): Parsed {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  for (const zone of calendar.getAllSubcomponents('vtimezone')) {
    ICAL.TimezoneService.register(zone);
  }
  const events = new Map<string, ICAL.Component>();
  for (const v of calendar.getAllSubcomponents('vevent')) {
    events.set(String(v.getFirstPropertyValue('summary')), v);
  }
  return { calendar, events };
}

describeEachDb(
  'iCalendar feeds',
  (env) => {
    const rest = new RestClient(env);
    let sample: Sample;

    beforeAll(async () => {
      sample = await createSample(env);
    });

    it('serves the listed events as text/calendar that ical.js parses', async () => {
      const response = await rest.get('/events.ics');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/);
      expect(response.text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:/);
      expect(response.text.endsWith('END:VCALENDAR\r\n')).toBe(true);
      const { calendar, events } = parseCalendar(response.text);
      expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
      expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('calendar.test events');
      // Anonymous: published and listed only (no draft, no hidden event), like GET /events.
      expect([...events.keys()].sort()).toEqual(['Jazz Night', 'Secret Gig']);
    });

    it('writes a timed event with its TZID, its VTIMEZONE and the right instants', async () => {
      const { calendar, events } = parseCalendar((await rest.get('/events.ics')).text);
      const zones = calendar
        .getAllSubcomponents('vtimezone')
        .map((z) => z.getFirstPropertyValue('tzid'));
      expect(zones.sort()).toEqual(['America/New_York', 'Europe/London']);
      const jazz = events.get('Jazz Night')!;
      const start = jazz.getFirstProperty('dtstart')!;
      expect(start.getParameter('tzid')).toBe('America/New_York');
      const event = new ICAL.Event(jazz);
      expect(event.uid).toBe(sample.jazz.global_id);
      expect(event.startDate.toString()).toBe('2027-03-10T19:00:00');
      expect(event.startDate.toJSDate().toISOString()).toBe('2027-03-11T00:00:00.000Z');
      expect(event.endDate.toJSDate().toISOString()).toBe('2027-03-11T03:30:00.000Z');
      expect(jazz.getFirstPropertyValue('dtstamp')).toBeTruthy();
      expect(Number(jazz.getFirstPropertyValue('sequence'))).toBeGreaterThan(0);
      expect(jazz.getFirstPropertyValue('last-modified')).toBeTruthy();
    });

    it('writes venue, geo, organizer, categories, URL and a plain-text description', async () => {
      const { events } = parseCalendar((await rest.get('/events.ics')).text);
      const jazz = events.get('Jazz Night')!;
      expect(jazz.getFirstPropertyValue('location')).toBe(
        'Main Hall\n1 Main St, Springfield, IL 62701, United States',
      );
      expect(jazz.getFirstPropertyValue('geo')).toEqual([39.7817, -89.6501]);
      const organizer = jazz.getFirstProperty('organizer')!;
      expect(organizer.getParameter('cn')).toBe('Acme Org');
      expect(organizer.getFirstValue()).toBe('mailto:org@example.com');
      expect(jazz.getFirstProperty('categories')!.getValues()).toEqual(['Concerts', 'Music, Live']);
      expect(jazz.getFirstPropertyValue('url')).toBe('http://calendar.test/event/jazz-night/');
      expect(jazz.getFirstPropertyValue('description')).toBe('Hello & welcome\n\nSecond line');
    });

    it('writes all-day events as DATE values with an exclusive end (editors see drafts)', async () => {
      const response = await rest.get('/events.ics?status=draft', { as: 'editor' });
      const { events } = parseCalendar(response.text);
      expect([...events.keys()]).toEqual(['Summer Fair']);
      const fair = events.get('Summer Fair')!;
      const start = fair.getFirstProperty('dtstart')!;
      expect(start.type).toBe('date');
      expect(String(start.getFirstValue())).toBe('2027-07-04');
      expect(String(fair.getFirstPropertyValue('dtend'))).toBe('2027-07-06');
      expect(response.text).toContain('DTSTART;VALUE=DATE:20270704\r\n');
    });

    it('applies the filters of GET /events', async () => {
      const byCategory = parseCalendar(
        (await rest.get('/events.ics?categories=markets&status=draft', { as: 'editor' })).text,
      );
      expect([...byCategory.events.keys()]).toEqual(['Summer Fair']);
      const bySearch = parseCalendar((await rest.get('/events.ics?search=jazz')).text);
      expect([...bySearch.events.keys()]).toEqual(['Jazz Night']);
      const none = parseCalendar((await rest.get('/events.ics?start_date=2030-01-01')).text);
      expect(none.events.size).toBe(0);
      expectError(
        await rest.get('/events.ics?per_page=abc&categories=nope'),
        400,
        'rest_invalid_param',
      );
      expectError(await rest.get('/events.ics?limit=0'), 400, 'rest_invalid_param', {
        limit: 'limit must be an integer from 1 to 5000.',
      });
      const limited = parseCalendar((await rest.get('/events.ics?limit=1')).text);
      expect(limited.events.size).toBe(1);
    });

    it('redacts password-protected events as lists do', async () => {
      const { events } = parseCalendar((await rest.get('/events.ics')).text);
      const secret = events.get('Secret Gig')!;
      expect(secret.getFirstPropertyValue('description')).toBeNull();
      expect(secret.getFirstPropertyValue('location')).toBeNull();
      expect(secret.getFirstProperty('categories')).toBeNull();
    });

    it('serves one event at /events/<id>.ics, with the password rules of single reads', async () => {
      const one = await rest.get(`/events/${sample.jazz.id}.ics`);
      expect(one.status).toBe(200);
      expect(one.headers.get('content-disposition')).toBe(
        `inline; filename="event-${sample.jazz.id}.ics"`,
      );
      expect([...parseCalendar(one.text).events.keys()]).toEqual(['Jazz Night']);
      expectError(await rest.get('/events/999999.ics'), 404, 'rest-event-not-found');
      expectError(await rest.get(`/events/${sample.fair.id}.ics`), 403, 'event-not-accessible');
      expectError(
        await rest.get(`/events/${sample.secret.id}.ics`),
        403,
        'event-password-protected',
      );
      const unlocked = await rest.get(`/events/${sample.secret.id}.ics?password=open%20sesame`);
      const secret = parseCalendar(unlocked.text).events.get('Secret Gig')!;
      expect(secret.getFirstPropertyValue('description')).toBe('Only for members');
    });

    it('rejects bad credentials with the REST 401, as every route does', async () => {
      const ics = await rest.get('/events.ics', { authorization: 'Bearer cal_1_nope' });
      expectError(ics, 401, 'rest_forbidden');
      const csv = await rest.get('/events?format=csv', { authorization: 'Bearer cal_1_nope' });
      expect(csv.status).toBe(401);
    });

    it('answers If-None-Match with 304, HEAD without a body, and under namespace aliases', async () => {
      const first = await rest.get('/events.ics');
      const etag = first.headers.get('etag')!;
      const again = await rest.get('/events.ics', { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      const head = await rest.head('/events.ics');
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      const aliased = await rest.get('/events.ics', { namespace: 'tribe/events/v1' });
      expect(aliased.status).toBe(200);
      expect(aliased.text).toBe(first.text);
    });
  },
  { NAMESPACE_ALIASES: 'tribe/events/v1' },
);
