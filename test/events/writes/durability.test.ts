import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, type Db, type Dialect } from '../../../src/db/knex';
import { mysqlAdmin, mysqlDatabaseUrl } from '../../support/mysql';
import { ServerProcess } from '../../support/process';

/**
 * Durability (ISSUE 5): the real server, a stream of acknowledged writes, SIGKILL mid-stream,
 * a restart on the same database. Every write that got a 2xx must be there with what was
 * acknowledged, and no write may be half there (an event without its links, a venue or
 * organizer created for an event that does not exist).
 */

const TOKEN = 'durability-admin-token-0123456789';
const DATES = { start_date: '2027-06-01 18:00:00', end_date: '2027-06-01 21:00:00' };
const WORKERS = 4;
/** Acknowledged writes before the kill. */
const KILL_AFTER = 30;

interface Created {
  id: number;
  title: string;
}

/** As `describeEachDb`: the MySQL copy is reported as skipped when MySQL is unreachable. */
function dialects(): [Dialect, typeof describe][] {
  const wanted = (process.env.TEST_DATABASES ?? 'sqlite,mysql').split(',').map((s) => s.trim());
  return (['sqlite', 'mysql'] as Dialect[])
    .filter((d) => wanted.includes(d))
    .map((d) => [d, d === 'mysql' && process.env.TEST_MYSQL !== 'on' ? describe.skip : describe]);
}

for (const [dialect, describeIt] of dialects())
  describeIt(`durability: SIGKILL mid-stream [${dialect}]`, () => {
    let databaseUrl: string;
    let cleanup: () => Promise<void> = async () => {};
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      const name = `cal_${process.env.TEST_RUN_ID ?? 'x'}_${process.pid}_durable`.toLowerCase();
      if (dialect === 'mysql') {
        await mysqlAdmin([
          `DROP DATABASE IF EXISTS \`${name}\``,
          `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`,
        ]);
        databaseUrl = mysqlDatabaseUrl(name);
        cleanup = () => mysqlAdmin([`DROP DATABASE IF EXISTS \`${name}\``]);
      } else {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-durable-'));
        databaseUrl = `sqlite:${path.join(dir, `${name}.sqlite`)}`;
        cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    afterAll(async () => {
      await server?.stop();
      await cleanup();
    });

    it('keeps every acknowledged write, whole, and nothing half-written', async () => {
      server = new ServerProcess({ DATABASE_URL: databaseUrl, ADMIN_TOKEN: TOKEN });
      const base = `${await server.listening()}/wp-json/calendar/events/v1`;
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

      const created: Created[] = [];
      /** Event id → the title of the update sent for it (acknowledged or not). */
      const updateSent = new Map<number, string>();
      const updateAcked = new Set<number>();
      let acked = 0;
      let killed = false;
      let inFlight = 0;
      let inFlightAtKill = 0;
      let sequence = 0;

      async function send(method: string, url: string, body: unknown): Promise<any> {
        inFlight++;
        let response: Response;
        let json: any;
        try {
          response = await fetch(url, { method, headers, body: JSON.stringify(body) });
          json = await response.json();
        } finally {
          inFlight--;
        }
        if (response.status >= 300)
          throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
        return json;
      }

      async function worker(): Promise<void> {
        while (!killed) {
          const n = sequence++;
          try {
            const target = created.find((c) => !updateSent.has(c.id));
            if (n % 3 === 2 && target) {
              const title = `${target.title} v2`;
              updateSent.set(target.id, title);
              await send('PATCH', `${base}/events/${target.id}`, {
                title,
                cost: '42',
                organizer: [1, 2, 3].map((k) => ({ organizer: `Durable org ${n}-${k}` })),
              });
              updateAcked.add(target.id);
            } else {
              const title = `Durable ${n}`;
              const event = await send('POST', `${base}/events`, {
                title,
                ...DATES,
                venue: { venue: `Durable hall ${n}` },
                organizer: [
                  { organizer: `Durable org ${n}-a` },
                  { organizer: `Durable org ${n}-b` },
                ],
                categories: ['Durable', `Durable ${n}`],
              });
              created.push({ id: event.id, title });
            }
            if (++acked === KILL_AFTER) {
              killed = true;
              inFlightAtKill = inFlight;
              server!.signal('SIGKILL');
            }
          } catch (error) {
            if (!killed) throw error;
          }
        }
      }

      await Promise.all(Array.from({ length: WORKERS }, () => worker()));
      expect(await server.exited).toBe('SIGKILL');
      // Killed mid-stream: other writes were on the wire, and nothing answers any more.
      expect(inFlightAtKill).toBeGreaterThan(0);
      await expect(fetch(`${base}/events`)).rejects.toThrow();
      expect(created.length).toBeGreaterThan(10);
      expect(updateAcked.size).toBeGreaterThan(3);

      // Restart on the same database: it must come up and serve what was acknowledged.
      server = new ServerProcess({ DATABASE_URL: databaseUrl, ADMIN_TOKEN: TOKEN });
      const restarted = `${await server.listening()}/wp-json/calendar/events/v1`;
      const db: Db = createDb({ databaseUrl, poolMax: 1 });
      try {
        const count = async (table: string, where: Record<string, unknown>): Promise<number> =>
          (await db(table).where(where)).length;

        // Every acknowledged create and update is there, with what was acknowledged.
        for (const event of created) {
          const row = await db('events').where({ id: event.id }).first();
          expect(row).toBeDefined();
          const updated = updateAcked.has(event.id);
          if (updated) expect(row.title).toBe(`${event.title} v2`);
          else expect([event.title, updateSent.get(event.id)]).toContain(row.title);
        }
        for (const id of [...updateAcked].slice(0, 5)) {
          const response = await fetch(`${restarted}/events/${id}`);
          expect(response.status).toBe(200);
          const body = (await response.json()) as { cost: string; organizer: unknown[] };
          expect(body).toMatchObject({ cost: '$42' });
          expect(body.organizer).toHaveLength(3);
        }

        // Nothing half-written: every stored event is a whole create or a whole update.
        const events = await db('events').where('title', 'like', 'Durable %');
        expect(events.length).toBeGreaterThanOrEqual(created.length);
        for (const row of events) {
          const organizers = await count('event_organizers', { event_id: row.id });
          const isUpdate = String(row.title).endsWith(' v2');
          expect({ title: row.title, organizers }).toEqual({
            title: row.title,
            organizers: isUpdate ? 3 : 2,
          });
          if (isUpdate) expect(row.cost).toBe('42');
          expect(row.venue_id).not.toBeNull();
          expect(await count('event_terms', { event_id: row.id })).toBe(2);
        }
        // No venue or organizer outlived the event write that created it.
        const orphanVenues = await db('venues')
          .where('title', 'like', 'Durable hall %')
          .whereNotExists(db('events').whereRaw('events.venue_id = venues.id'));
        expect(orphanVenues).toEqual([]);
        const orphanOrganizers = await db('organizers')
          .where('title', 'like', 'Durable org %')
          .whereNotExists(
            db('event_organizers').whereRaw('event_organizers.organizer_id = organizers.id'),
          );
        // Organizers an update replaced stay (unlinked) by design; any other orphan would be a
        // piece of a write that did not commit whole.
        for (const row of orphanOrganizers) {
          const [, n, suffix] = /^Durable org (\d+)-(\w)$/.exec(String(row.title))!;
          expect(suffix).toMatch(/^[ab]$/);
          expect(await count('events', { title: `Durable ${n} v2` })).toBe(1);
        }
        const category = await db('terms').where({ taxonomy: 'category', name: 'Durable' }).first();
        const linked = await count('event_terms', { term_id: category.id });
        expect(Number(category.count)).toBe(linked);
      } finally {
        await db.destroy();
      }

      server.signal('SIGTERM');
      expect(await server.exited).toBe(0);
    }, 90_000);
  });
