import { createHash } from 'node:crypto';
import { runCli } from '../../src/cli';
import { createLogger } from '../../src/http/logger';
import { createApp } from '../../src/http/server';
import { insertEvent } from '../support/event-fixtures';
import { describeEachDb, type TestEnv } from '../support/harness';

/**
 * Private feed URLs (docs/feeds.md "Private feeds"): `feed-token:create` prints a URL whose
 * `feed_token` reads the feed as its user (drafts and private events of an editor), personal
 * caching (private, an ETag of the user's own), 401 for unknown and revoked tokens, never an
 * anonymous fallback, the secret stored only hashed and never logged.
 */

const NS = 'http://localhost/wp-json/calendar/events/v1';

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

async function cli(env: TestEnv, ...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const out = jest.spyOn(console, 'log').mockImplementation((line: string) => {
    stdout += `${line}\n`;
  });
  const err = jest.spyOn(console, 'error').mockImplementation((line: string) => {
    stderr += `${line}\n`;
  });
  try {
    const status = await runCli(args, {
      DATABASE_URL: env.config.databaseUrl,
      SITE_URL: 'http://calendar.test',
    });
    return { status, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** `feed-token:create` for `login`: the token id, the secret and the URL it printed. */
async function createFeed(env: TestEnv, login: string) {
  const run = await cli(env, 'feed-token:create', '--login', login, '--name', 'phone');
  expect(run).toMatchObject({ status: 0 });
  const url = /^http\S+$/m.exec(run.stdout)?.[0] ?? '';
  expect(url).toMatch(
    /^http:\/\/calendar\.test\/wp-json\/calendar\/events\/v1\/events\.ics\?feed_token=calfeed_\d+_/,
  );
  const token = new URL(url).searchParams.get('feed_token')!;
  const id = Number(/^calfeed_(\d+)_/.exec(token)![1]);
  return { id, token, url, stdout: run.stdout };
}

async function get(env: TestEnv, url: string, headers: Record<string, string> = {}) {
  const response = await env.app.yoga.fetch(url, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const feedUrl = (token: string) => `${NS}/events.ics?feed_token=${encodeURIComponent(token)}`;

describeEachDb('private feed URLs', (env) => {
  let editor: { login: string };
  let draft: number;

  beforeAll(async () => {
    editor = await env.user('editor');
    await insertEvent(env, { title: 'Open Concert', start: '2027-01-05 19:00:00' });
    draft = await insertEvent(env, {
      title: 'Secret Draft',
      start: '2027-01-06 19:00:00',
      status: 'draft',
    });
    await insertEvent(env, {
      title: 'Private Rehearsal',
      start: '2027-01-07 19:00:00',
      status: 'private',
    });
  });

  it('serves the events its user may read, privately; the anonymous feed stays public', async () => {
    const feed = await createFeed(env, editor.login);
    const personal = await get(env, feedUrl(feed.token));
    expect(personal.status).toBe(200);
    expect(personal.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(personal.text).toContain('SUMMARY:Open Concert');
    expect(personal.text).toContain('SUMMARY:Secret Draft');
    expect(personal.text).toContain('SUMMARY:Private Rehearsal');
    expect(personal.headers.get('cache-control')).toBe('private, no-cache');

    const anonymous = await get(env, `${NS}/events.ics`);
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toContain('SUMMARY:Open Concert');
    expect(anonymous.text).not.toContain('Secret Draft');
    expect(anonymous.text).not.toContain('Private Rehearsal');
    expect(anonymous.headers.get('cache-control')).toBe('no-cache');
    expect(anonymous.headers.get('etag')).not.toBe(personal.headers.get('etag'));

    // The site's calendar address takes the same token.
    const site = await get(
      env,
      `http://localhost/events/?ical=1&feed_token=${encodeURIComponent(feed.token)}`,
    );
    expect(site.status).toBe(200);
    expect(site.text).toContain('SUMMARY:Private Rehearsal');
    expect(site.headers.get('etag')).toBe(personal.headers.get('etag'));

    // One event's feed, and a CSV export, read as the token's user too.
    const one = await get(env, `${NS}/events/${draft}.ics?feed_token=${feed.token}`);
    expect(one.status).toBe(200);
    expect(one.text).toContain('SUMMARY:Secret Draft');
    expect(one.headers.get('cache-control')).toBe('private, no-cache');
    expect((await get(env, `${NS}/events/${draft}.ics`)).status).not.toBe(200);
    const csv = await get(env, `${NS}/events?format=csv&feed_token=${feed.token}`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('Secret Draft');
    expect(csv.headers.get('cache-control')).toBe('private, no-store');
    // The JSON list does not read the parameter: anonymous, as without it.
    const json = await get(env, `${NS}/events?feed_token=${feed.token}`);
    expect(json.status).toBe(200);
    expect(json.text).not.toContain('Secret Draft');
  });

  it('gives each user an ETag of their own and answers 304 to it', async () => {
    const mine = await createFeed(env, editor.login);
    const admin = await env.user('administrator');
    const theirs = await createFeed(env, admin.login);
    const a = await get(env, feedUrl(mine.token));
    const b = await get(env, feedUrl(theirs.token));
    // Same events (both see every status), yet not one shared tag.
    expect(a.text.match(/^SUMMARY:.*$/gm)).toEqual(b.text.match(/^SUMMARY:.*$/gm));
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
    const again = await get(env, feedUrl(mine.token), {
      'if-none-match': a.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
    const crossed = await get(env, feedUrl(theirs.token), {
      'if-none-match': a.headers.get('etag')!,
    });
    expect(crossed.status).toBe(200);
  });

  it('refuses unknown, malformed and revoked tokens with the contract’s 401, never anonymously', async () => {
    const feed = await createFeed(env, editor.login);
    const unknown = feed.token.replace(/_[^_]+$/, '_' + 'x'.repeat(43));
    for (const token of [unknown, 'calfeed_999999_' + 'y'.repeat(43), 'nonsense', '']) {
      const answer = await get(env, feedUrl(token));
      expect({ token, status: answer.status }).toEqual({ token, status: 401 });
      expect(JSON.parse(answer.text)).toMatchObject({
        code: 'rest_forbidden',
        data: { status: 401 },
      });
    }
    // A token and credentials at once is ambiguous: a 400.
    const both = await get(env, feedUrl(feed.token), {
      authorization: `Bearer ${(await env.user('editor')).token}`,
    });
    expect(both.status).toBe(400);
    expect(JSON.parse(both.text)).toMatchObject({ code: 'rest_invalid_param' });

    expect((await get(env, feedUrl(feed.token))).status).toBe(200);
    const revoke = await cli(env, 'feed-token:revoke', String(feed.id));
    expect(revoke).toMatchObject({ status: 0, stdout: `Revoked feed token ${feed.id}.\n` });
    const revoked = await get(env, feedUrl(feed.token));
    expect(revoked.status).toBe(401);
    expect(revoked.text).not.toContain('BEGIN:VCALENDAR');
    const site = await get(env, `http://localhost/events/?ical=1&feed_token=${feed.token}`);
    expect(site.status).toBe(401);
    expect(await cli(env, 'feed-token:revoke', '--id', String(feed.id))).toMatchObject({
      status: 0,
      stdout: `Feed token ${feed.id} was already revoked.\n`,
    });
  });

  it('stores only a hash and lists tokens without secrets', async () => {
    const feed = await createFeed(env, editor.login);
    const row = await env.db('feed_tokens').where({ id: feed.id }).first();
    const secret = feed.token.replace(/^calfeed_\d+_/, '');
    expect(row.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);

    const list = await cli(env, 'feed-token:list', '--login', editor.login, '--json');
    expect(list.status).toBe(0);
    expect(list.stdout).not.toContain(secret);
    const listed = JSON.parse(list.stdout) as { id: number; login: string; name: string }[];
    expect(listed.find((t) => t.id === feed.id)).toMatchObject({
      login: editor.login,
      name: 'phone',
    });
    expect(await cli(env, 'feed-token:create', '--login', 'nobody-here')).toMatchObject({
      status: 3,
    });
    expect(await cli(env, 'feed-token:revoke', '987654')).toMatchObject({ status: 3 });
  });

  it('keeps the token out of the logs', async () => {
    const written: string[] = [];
    const logger = createLogger('trace', { write: (line: string) => written.push(line) });
    const app = await createApp({ config: env.config, db: env.db, now: () => env.now, logger });
    const feed = await createFeed(env, editor.login);
    const secret = feed.token.replace(/^calfeed_\d+_/, '');
    const ok = await app.yoga.fetch(feedUrl(feed.token));
    expect(ok.status).toBe(200);
    await ok.text();
    const site = await app.yoga.fetch(`http://localhost/events/?ical=1&feed_token=${feed.token}`);
    await site.text();
    const wrong = await app.yoga.fetch(feedUrl(`${feed.token}x`));
    expect(wrong.status).toBe(401);
    const logs = written.join('');
    expect(logs).toContain('events.ics');
    expect(logs).not.toContain(secret);
  });
});

describeEachDb(
  'private feed URLs: guessing',
  (env) => {
    it('counts wrong guesses at a token like wrong event passwords: 429 past the limit', async () => {
      const editor = await env.user('editor');
      const feed = await createFeed(env, editor.login);
      const wrong = feed.token.replace(/_[^_]+$/, '_' + 'z'.repeat(43));
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(env, feedUrl(wrong))).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      // That token is locked for this client until the window ends; others are not.
      expect((await get(env, feedUrl(feed.token))).status).toBe(429);
      const other = await createFeed(env, editor.login);
      expect((await get(env, feedUrl(other.token))).status).toBe(200);
    });
  },
  { EVENT_PASSWORD_RATE_LIMIT: '3' },
);
