import { spawnedServers, type ServerProcess } from '../support/process';

/**
 * Standard output is written in batches (src/http/logger.ts, `standardOutput`): lines wait until
 * 4 KB of them do, or a second has passed. A quiet server's access line still comes out without
 * more traffic, and the lines waiting when SIGTERM arrives are written before the process ends.
 */

const NS = '/wp-json/calendar/events/v1';

describe('access log batches [sqlite]', () => {
  const servers = spawnedServers('cal-log-flush-');

  const accessLines = (s: ServerProcess, marker: string) =>
    s.logs().filter((l) => l.msg === 'request' && String(l.path).includes(marker));

  it('writes a lone access line within the flush interval, with no other request', async () => {
    const server = servers.start({ DATABASE_URL: servers.sqlite('quiet.sqlite') });
    const base = await server.listening();
    const response = await fetch(`${base}${NS}/events?search=lone-line`);
    expect(response.status).toBe(200);
    const sent = Date.now();
    const [line] = await server.waitFor(
      'the access line',
      () => {
        const found = accessLines(server, 'lone-line');
        return found.length ? found : undefined;
      },
      5_000,
    );
    expect(line).toMatchObject({ level: 'info', method: 'GET', status: 200 });
    // Batched, but never more than the flush interval (1 s) behind, plus scheduling slack.
    expect(Date.now() - sent).toBeLessThan(3_000);
  }, 45_000);

  it('writes the lines still waiting when SIGTERM arrives', async () => {
    const server = servers.start({ DATABASE_URL: servers.sqlite('term.sqlite') });
    const base = await server.listening();
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${base}${NS}/events?search=before-term-${i}`)).status).toBe(200);
    }
    server.signal('SIGTERM');
    expect(await server.exited).toBe(0);
    for (let i = 0; i < 5; i++) expect(accessLines(server, `before-term-${i}`)).toHaveLength(1);
  }, 45_000);
});
