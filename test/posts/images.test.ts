import ipaddr from 'ipaddr.js';
import { describeEachDb, type TestEnv } from '../support/harness';
import { IMAGE_HOST, startImageServer, type ImageServer } from '../support/image-server';
import { RestClient, expectError } from '../support/rest/rest-client';
import {
  assertPort,
  isPublicAddress,
  parseAllow,
  pickAddress,
  REFUSED,
  REFUSED_PORT,
} from '../../src/posts/image-guard';

/**
 * Image URLs are fetched once on write (docs/contract.md "Images", docs/security.md "Image
 * fetching"): real type and size stored, reused by URL, refused with 400 (nothing stored) when
 * unreachable, not an image, too large, too slow or pointing at a private address.
 */

const DATES = { start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 12:00:00' };
const admin = { as: 'administrator' as const };

/** Every fetch the server saw, and a snapshot of every table, around a write that must fail. */
async function refused(
  env: TestEnv,
  server: ImageServer,
  write: () => Promise<{ status: number; body: any }>,
  param = 'image',
): Promise<string> {
  await env.user('administrator');
  const before = await env.snapshot();
  const response = await write();
  expectError(response as any, 400, 'rest_invalid_param');
  expect(Object.keys(response.body.data.params)).toEqual([param]);
  expect(await env.snapshot()).toBe(before);
  expect(server).toBeDefined();
  return response.body.data.params[param];
}

describeEachDb(
  'image URLs fetched on write',
  (env) => {
    let server: ImageServer;
    const rest = new RestClient(env);
    beforeAll(async () => {
      server = await startImageServer({ hugeBytes: 8 * 1024, slowMs: 3_000 });
    });
    afterAll(() => server.close());

    it('stores a PNG, a JPEG and a GIF with their real size, type and extension', async () => {
      const png = await rest.post(
        '/events',
        { title: 'P', ...DATES, image: server.url('/a.png') },
        admin,
      );
      expect(png.status).toBe(201);
      expect(png.body.image).toEqual({
        url: server.url('/a.png'),
        id: expect.any(Number),
        extension: 'png',
        width: 3,
        height: 2,
      });
      const jpeg = await rest.post('/venues', { venue: 'J', image: server.url('/b.JPEG') }, admin);
      expect(jpeg.body.image).toEqual({
        url: server.url('/b.JPEG'),
        id: expect.any(Number),
        extension: 'jpeg',
        width: 5,
        height: 4,
      });
      const gif = await rest.post(
        '/organizers',
        { organizer: 'G', image: server.url('/c.gif?v=1') },
        admin,
      );
      expect(gif.body.image).toMatchObject({ extension: 'gif', width: 7, height: 6 });
      const rows = await env.db('images').select('url', 'mime_type', 'extension').orderBy('id');
      expect(rows).toEqual([
        { url: server.url('/a.png'), mime_type: 'image/png', extension: 'png' },
        { url: server.url('/b.JPEG'), mime_type: 'image/jpeg', extension: 'jpeg' },
        { url: server.url('/c.gif?v=1'), mime_type: 'image/gif', extension: 'gif' },
      ]);
      const read = await env.ok(
        `{ venue(id: ${jpeg.body.id}) { image { id url extension width height sizes } } }`,
      );
      expect(read.venue.image).toEqual({ ...jpeg.body.image, sizes: null });
    });

    it('names the file by its real type when the URL says another or none', async () => {
      const liar = await rest.post(
        '/venues',
        { venue: 'Liar', image: server.url('/png-as.jpg') },
        admin,
      );
      expect(liar.body.image).toMatchObject({ extension: 'png', width: 3, height: 2 });
    });

    it('fetches a URL once: reused by later writes and within one write', async () => {
      const url = server.url('/once.png');
      const first = await rest.post('/venues', { venue: 'Once A', image: url }, admin);
      const second = await rest.post('/organizers', { organizer: 'Once B', image: url }, admin);
      expect(second.body.image.id).toBe(first.body.image.id);
      expect(server.requests.get('/once.png')).toBe(1);
      const both = server.url('/both.gif');
      const event = await rest.post(
        '/events',
        { title: 'Both', ...DATES, image: both, venue: { venue: 'Both Hall', image: both } },
        admin,
      );
      expect(event.status).toBe(201);
      expect(event.body.venue.image.id).toBe(event.body.image.id);
      expect(server.requests.get('/both.gif')).toBe(1);
      const byId = await rest.post(
        '/venues',
        { venue: 'By id', image: String(event.body.image.id) },
        admin,
      );
      expect(byId.body.image.id).toBe(event.body.image.id);
      expect(server.requests.get('/both.gif')).toBe(1);
    });

    it('follows a few redirects and stores the image under the URL it was given', async () => {
      const url = server.url('/redirect/2/hop.png');
      const made = await rest.post('/venues', { venue: 'Hops', image: url }, admin);
      expect(made.body.image).toMatchObject({ url, width: 3, height: 2 });
      const far = server.url('/redirect/5/far.png');
      expect(
        await refused(env, server, () => rest.post('/venues', { venue: 'Far', image: far }, admin)),
      ).toMatch(/too many redirects/);
    });

    it('refuses what cannot be fetched or is no image, storing nothing', async () => {
      const cases: [string, RegExp][] = [
        ['http://127.0.0.1:1/x.png', /could not be fetched/],
        [server.url('/page.html'), /is not a JPEG, PNG, GIF, WebP or AVIF image/],
        [server.url('/missing.png'), /HTTP 404/],
        [server.url('/huge.png'), /is larger than 4096 bytes/],
        [server.url('/huge-chunked.png'), /is larger than 4096 bytes/],
        [server.url('/slow.png'), /in time/],
        ['http://no-such-host.invalid/x.png', /could not be fetched/],
      ];
      for (const [url, reason] of cases) {
        for (const write of [
          () => rest.post('/events', { title: 'Bad', ...DATES, image: url }, admin),
          () => rest.post('/venues', { venue: 'Bad', image: url }, admin),
        ]) {
          expect(await refused(env, server, write)).toMatch(reason);
        }
      }
      // Nested in an event, the problem is the event's `venue` / `organizer` parameter.
      const nested = () =>
        rest.post(
          '/events',
          {
            title: 'Bad',
            ...DATES,
            organizer: [{ organizer: 'Bad', image: server.url('/page.html') }],
          },
          admin,
        );
      await refused(env, server, nested, 'organizer');
      const venue = (await rest.post('/venues', { venue: 'Kept' }, admin)).body;
      await refused(env, server, () =>
        rest.post(`/venues/${venue.id}`, { image: server.url('/page.html') }, admin),
      );
    });

    it('refuses the next hop of a redirect to a private address that is not allowed', async () => {
      const port = new URL(server.url('/')).port;
      const url = server.url(`/goto/${encodeURIComponent(`http://127.0.0.2:${port}/x.png`)}`);
      expect(
        await refused(env, server, () => rest.post('/venues', { venue: 'Hop', image: url }, admin)),
      ).toBe(REFUSED);
    });

    it('holds no transaction while fetching: other writes go on meanwhile', async () => {
      const slow = rest.post(
        '/venues',
        { venue: 'Waited', image: server.url('/wait/600/w.png') },
        admin,
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      const order: string[] = [];
      const quick = rest.post('/events', { title: 'Meanwhile', ...DATES }, admin).then((r) => {
        order.push('quick');
        return r;
      });
      const done = await Promise.all([slow.then((r) => (order.push('slow'), r)), quick]);
      expect(done.map((r) => r.status)).toEqual([201, 201]);
      expect(order).toEqual(['quick', 'slow']);
      expect(done[0].body.image).toMatchObject({ width: 3, height: 2 });
    });

    it('fetches nothing for a write refused for another reason', async () => {
      const before = server.count();
      const url = server.url('/never.png');
      const anonymous = await rest.post('/venues', { venue: 'Anon', image: url });
      expectError(anonymous, 401, 'rest_forbidden');
      const subscriber = await rest.post(
        '/venues',
        { venue: 'Sub', image: url },
        { as: 'subscriber' },
      );
      expectError(subscriber, 403, 'rest_forbidden');
      const invalid = await rest.post(
        '/events',
        { title: 'Bad', ...DATES, website: 'foo', image: url },
        admin,
      );
      expectError(invalid, 400, 'rest_invalid_param');
      expect(Object.keys(invalid.body.data.params)).toEqual(['website']);
      expect(server.count()).toBe(before);
    });

    it('fetches on GraphQL writes alike', async () => {
      const created = await env.ok(
        `mutation($input: OrganizerInput!) { create_organizer(input: $input) { image { extension width height } } }`,
        { input: { organizer: 'Graph', image: server.url('/graph.jpg') } },
        admin,
      );
      expect(created.create_organizer.image).toEqual({ extension: 'jpg', width: 5, height: 4 });
      const bad = await env.gql(
        `mutation($input: OrganizerInput!) { create_organizer(input: $input) { id } }`,
        { input: { organizer: 'Graph bad', image: server.url('/page.html') } },
        admin,
      );
      expect(bad.errors?.[0]?.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        rest_code: 'rest_invalid_param',
        params: { image: 'is not a JPEG, PNG, GIF, WebP or AVIF image' },
      });
    });
  },
  { IMAGE_FETCH_ALLOW: IMAGE_HOST, IMAGE_FETCH_MAX_BYTES: '4096', IMAGE_FETCH_TIMEOUT_MS: '1000' },
);

describeEachDb(
  'image URLs on private addresses, without the allowlist',
  (env) => {
    let server: ImageServer;
    const rest = new RestClient(env);
    beforeAll(async () => {
      server = await startImageServer();
    });
    afterAll(() => server.close());

    it('refuses loopback, private and link-local addresses before connecting', async () => {
      const port = new URL(server.url('/')).port;
      const urls = [
        server.url('/x.png'),
        `http://localhost:${port}/x.png`,
        `http://[::ffff:127.0.0.1]:${port}/x.png`,
        `http://[::1]:${port}/x.png`,
        `http://0.0.0.0:${port}/x.png`,
        'http://10.1.2.3/x.png',
        'http://169.254.169.254/latest/meta-data',
        'http://100.64.0.1/x.png',
        'http://[fd00::1]/x.png',
        'http://[fe80::1]/x.png',
      ];
      for (const url of urls) {
        const reason = await refused(env, server, () =>
          rest.post('/events', { title: 'Private', ...DATES, image: url }, admin),
        );
        expect([url, reason]).toEqual([url, REFUSED]);
      }
      expect(server.count()).toBe(0);
    });
  },
  // Test environments allow 127.0.0.1 by default (support/harness.ts): not this one.
  { IMAGE_FETCH_ALLOW: '' },
);

describe('image fetch address policy', () => {
  it('allows only globally routable unicast addresses', () => {
    const publicOnes = ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001::1'];
    const privateOnes = [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '0.1.2.3',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.1',
      '198.18.0.1',
      '240.0.0.1',
      '::',
      '::1',
      'fe80::1',
      'fd12:3456::1',
      'ff02::1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      '2001::1',
      '2001:db8::1',
      '::7f00:1',
    ];
    for (const a of publicOnes) expect([a, isPublicAddress(ipaddr.parse(a))]).toEqual([a, true]);
    for (const a of privateOnes) expect([a, isPublicAddress(ipaddr.parse(a))]).toEqual([a, false]);
    // IPv4-mapped IPv6 is judged as the IPv4 address it carries.
    expect(isPublicAddress(ipaddr.process('::ffff:127.0.0.1'))).toBe(false);
    expect(isPublicAddress(ipaddr.process('::ffff:8.8.8.8'))).toBe(true);
  });

  it('reads the allowlist: host names, addresses and ranges', async () => {
    const allow = parseAllow(['intranet.example', '10.0.0.0/8', '::1', '192.168.1.7']);
    const far = Date.now() + 1_000;
    const listed = (address: string, family: 4 | 6) => ({ address, family, listed: true });
    expect(await pickAddress('10.20.30.40', allow, far)).toEqual(listed('10.20.30.40', 4));
    expect(await pickAddress('[::1]', allow, far)).toEqual(listed('::1', 6));
    expect(await pickAddress('[::ffff:10.0.0.1]', allow, far)).toEqual(listed('10.0.0.1', 4));
    expect(await pickAddress('192.168.1.7', allow, far)).toEqual(listed('192.168.1.7', 4));
    await expect(pickAddress('192.168.1.8', allow, far)).rejects.toMatchObject({ reason: REFUSED });
    await expect(pickAddress('127.0.0.1', allow, far)).rejects.toMatchObject({ reason: REFUSED });
    const open = await pickAddress('8.8.4.4', allow, far);
    expect(open).toEqual({ address: '8.8.4.4', family: 4, listed: false });
    // Public addresses only on web ports; allowlisted ones on any.
    for (const url of ['http://a.example/x', 'https://a.example/x', 'http://a.example:8080/x'])
      expect(() => assertPort(new URL(url), open)).not.toThrow();
    for (const url of [
      'http://a.example:22/x',
      'https://a.example:8443/x',
      'http://a.example:6379/',
    ])
      expect(() => assertPort(new URL(url), open)).toThrow(REFUSED_PORT);
    expect(() => assertPort(new URL('http://10.0.0.1:6379/'), listed('10.0.0.1', 4))).not.toThrow();
  });
});
