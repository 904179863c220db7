import { ConfigError, loadConfig } from '../../src/config/config';
import { createApp, type App } from '../../src/http/server';
import { describeEachDb, type TestEnv } from '../support/harness';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus' text exposition format (enough of it for these tests). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`unparseable metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = value!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found.reduce((sum, s) => sum + s.value, 0);
}

async function scrape(app: App, headers: Record<string, string> = {}) {
  const response = await app.yoga.fetch('http://localhost/metrics', { headers });
  return { response, text: await response.text() };
}

const EVENTS = '/wp-json/calendar/events/v1/events';

describeEachDb('Prometheus metrics at /metrics', (env: TestEnv) => {
  let app: App;
  let eventId: number;

  beforeAll(async () => {
    // A fresh app: its counters start at zero.
    app = await createApp({ config: env.config, db: env.db });
    const created = await app.yoga.fetch(`http://localhost${EVENTS}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await env.authHeaders('administrator')) },
      body: JSON.stringify({
        title: 'Metrics Night',
        start_date: '2026-12-01 19:00:00',
        end_date: '2026-12-01 21:00:00',
      }),
    });
    expect(created.status).toBe(201);
    eventId = ((await created.json()) as { id: number }).id;
    const calls: [string, RequestInit?][] = [
      [`${EVENTS}/${eventId}`],
      [`${EVENTS}/${eventId}`],
      [`${EVENTS}/999999`],
      [`${EVENTS}?per_page=5`],
      [`${EVENTS}/by-slug/metrics-night`],
      ['/wp-json/calendar/events/v1/no-such-route/12'],
      ['/wp-json/calendar/rest/event/12'],
      ['/no/such/page/4242'],
      ['/wp-json/'],
      ['/wp-json/nope/v9/4242'],
      ['/events/?ical=1'],
      ['/event/metrics-night/'],
      ['/event/no-such-event-4242/'],
      ['/sitemap.xml'],
      [
        '/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ viewer { id } }' }),
        },
      ],
      ['/healthz'],
    ];
    for (const [path, init] of calls) {
      await (await app.yoga.fetch(`http://localhost${path}`, init ?? {})).text();
    }
  });

  it('answers the text exposition format', async () => {
    const { response, text } = await scrape(app);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(text).toMatch(/^# HELP http_requests_total /m);
    expect(text).toMatch(/^# TYPE http_request_duration_seconds histogram$/m);
    expect(() => parse(text)).not.toThrow();
  });

  it('counts requests by route pattern, method and status', async () => {
    const samples = parse((await scrape(app)).text);
    const count = (route: string, method: string, status: string) =>
      value(samples, 'http_requests_total', { route, method, status });
    expect(count(`${EVENTS}/{id}`, 'GET', '200')).toBe(2);
    expect(count(`${EVENTS}/{id}`, 'GET', '404')).toBe(1);
    expect(count(EVENTS, 'GET', '200')).toBe(1);
    expect(count(EVENTS, 'POST', '201')).toBe(1);
    expect(count(`${EVENTS}/by-slug/{slug}`, 'GET', '200')).toBe(1);
    expect(count('/wp-json/calendar/events/v1/*', 'GET', '404')).toBe(1);
    expect(count('/wp-json/calendar/rest/*', 'GET', '404')).toBe(1);
    expect(count('unmatched', 'GET', '404')).toBe(1);
    expect(count('/wp-json/', 'GET', '200')).toBe(1);
    expect(count('/wp-json/*', 'GET', '404')).toBe(1);
    expect(count('/events/', 'GET', '200')).toBe(1);
    // The public pages: their patterns, not their slugs.
    expect(count('/event/<slug>/', 'GET', '200')).toBe(1);
    expect(count('/event/<slug>/', 'GET', '404')).toBe(1);
    expect(count('/sitemap.xml', 'GET', '200')).toBe(1);
    expect(count('/graphql', 'POST', '200')).toBe(1);
    expect(count('/healthz', 'GET', '200')).toBe(1);
  });

  it('never uses raw paths as labels: ids and slugs stay out', async () => {
    const samples = parse((await scrape(app)).text);
    const routes = new Set(
      samples.filter((s) => s.name.startsWith('http_request')).map((s) => s.labels.route),
    );
    for (const route of routes) {
      expect(route).not.toMatch(/\/\d+(\/|$)|metrics-night|4242/);
    }
    expect(routes).toEqual(
      new Set([
        EVENTS,
        `${EVENTS}/{id}`,
        `${EVENTS}/by-slug/{slug}`,
        '/wp-json/calendar/events/v1/*',
        '/wp-json/calendar/rest/*',
        'unmatched',
        '/wp-json/',
        '/wp-json/*',
        '/events/',
        '/event/<slug>/',
        '/sitemap.xml',
        '/graphql',
        '/healthz',
        '/metrics',
      ]),
    );
  });

  it('has a latency histogram per route whose count matches the requests', async () => {
    const samples = parse((await scrape(app)).text);
    const labels = { route: `${EVENTS}/{id}`, method: 'GET' };
    expect(value(samples, 'http_request_duration_seconds_count', labels)).toBe(3);
    expect(value(samples, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
      3,
    );
    expect(value(samples, 'http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    const buckets = samples.filter(
      (s) =>
        s.name === 'http_request_duration_seconds_bucket' &&
        s.labels.route === labels.route &&
        s.labels.method === 'GET',
    );
    expect(buckets.length).toBeGreaterThan(5);
  });

  it('reports the database pool and the process', async () => {
    const samples = parse((await scrape(app)).text);
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'db_pool_used_connections',
      'db_pool_free_connections',
      'db_pool_pending_acquires',
      'db_pool_pending_creates',
      'db_pool_max_connections',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names).toContain(name);
    }
    // The harness opens SQLite with its one connection and MySQL with a pool of 4.
    expect(value(samples, 'db_pool_max_connections')).toBe(env.dialect === 'sqlite' ? 1 : 4);
    expect(value(samples, 'db_pool_used_connections')).toBe(0);
    expect(value(samples, 'db_pool_free_connections')).toBeGreaterThanOrEqual(1);
  });

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await createApp({ config: { ...env.config, metricsToken: token }, db: env.db });
    const anonymous = await scrape(guarded);
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(JSON.parse(anonymous.text).code).toBe('metrics_unauthorized');
    expect(
      (await scrape(guarded, { authorization: 'Bearer wrong-token-0123456789' })).response.status,
    ).toBe(401);
    const allowed = await scrape(guarded, { authorization: `Bearer ${token}` });
    expect(allowed.response.status).toBe(200);
    expect(allowed.text).toMatch(
      /^http_requests_total\{route="\/metrics",method="GET",status="401"\} 2$/m,
    );
  });
});

describe('METRICS_TOKEN', () => {
  it('is optional, and refused when short or spaced, without echoing it', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'scrape-token-0123456789' }).metricsToken).toBe(
      'scrape-token-0123456789',
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(
      new ConfigError(
        'METRICS_TOKEN must be at least 16 characters without spaces, got 12 character(s).',
      ),
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the middle' })).toThrow(ConfigError);
  });
});
