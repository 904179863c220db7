import { describeEachDb } from '../../support/harness';
import { RestClient } from '../../support/rest/rest-client';

/**
 * UTC offsets beyond ±14:00 (or with 60 minutes or more) are refused with 400
 * `rest_invalid_param` wherever a date or a time zone is read: event dates and time zones on
 * write, post dates, list date filters; REST and GraphQL alike. Real offsets keep working.
 */

const BAD_DATES = [
  '2027-05-01T10:00:00+99:00',
  '2027-05-01T10:00:00-15:00',
  '2027-05-01T10:00:00+14:01',
  '2027-05-01T10:00:00-1430',
  '2027-05-01T10:00:00+05:60',
  'May 1 2027 10:00 -1500',
  'tomorrow 9am +99:00',
  'tomorrow 9am UTC-15:00',
];
const BAD_ZONES = ['+99:00', '-15:00', '+1401', '-15', 'UTC+99', 'UTC-15:00', 'UTC+14:30'];
const q = encodeURIComponent;

describeEachDb('UTC offsets', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };
  const event = (fields: Record<string, unknown>) => ({
    title: 'Offset check',
    start_date: '2027-05-01 10:00:00',
    end_date: '2027-05-01 11:00:00',
    ...fields,
  });

  it.each(BAD_DATES)('refuses the date %s on event writes and list filters', async (date) => {
    for (const field of ['start_date', 'end_date', 'date']) {
      const created = await rest.post('/events', event({ [field]: date }), admin);
      expect({ field, status: created.status, code: created.body.code }).toEqual({
        field,
        status: 400,
        code: 'rest_invalid_param',
      });
      expect(Object.keys(created.body.data.params)).toContain(field);
    }
    for (const filter of ['start_date', 'end_date', 'starts_after', 'ends_before']) {
      const listed = await rest.get(`/events?${filter}=${q(date)}`);
      expect({ filter, status: listed.status, code: listed.body.code }).toEqual({
        filter,
        status: 400,
        code: 'rest_invalid_param',
      });
    }
    const graphql = await env.gql('query($d: String) { events(start_date: $d) { total } }', {
      d: date,
    });
    expect(graphql.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_invalid_param',
    });
  });

  it.each(BAD_ZONES)('refuses the time zone %s', async (timezone) => {
    const created = await rest.post('/events', event({ timezone }), admin);
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { timezone: expect.any(String) } },
    });
    const graphql = await env.gql(
      'mutation($input: EventInput!) { create_event(input: $input) { id } }',
      { input: event({ timezone }) },
      admin,
    );
    expect(graphql.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('keeps accepting real offsets, up to ±14:00', async () => {
    const east = await rest.post(
      '/events',
      event({ start_date: '2027-05-01T10:00:00+14:00', end_date: '2027-05-01T11:00:00-1200' }),
      admin,
    );
    expect(east.status).toBe(201);
    expect(east.body.utc_start_date).toBe('2027-04-30 20:00:00');
    expect(east.body.utc_end_date).toBe('2027-05-01 23:00:00');
    for (const timezone of ['UTC+14', 'UTC-12', 'UTC+5:30', 'Pacific/Kiritimati']) {
      const created = await rest.post('/events', event({ timezone }), admin);
      expect({ timezone, status: created.status }).toEqual({ timezone, status: 201 });
    }
    const listed = await rest.get(`/events?start_date=${q('2027-05-01T00:00:00-12:00')}`);
    expect(listed.status).toBe(200);
  });
});
