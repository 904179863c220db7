import type { Connection } from 'mysql2/promise';
import type { Ledger } from './load';

/**
 * Checks every acknowledged write of the ledger against the database (one node, after the
 * cluster has settled):
 *
 * - lost: an acknowledged create whose event is missing, or lacks the venue, organizer,
 *   category or tag it was created with; an acknowledged update whose title is not the one
 *   stored (unless a later write of unknown outcome may have changed it); an acknowledged
 *   delete whose event is still there;
 * - duplicated: one create stored twice (its marker in more than one event), or one name
 *   stored twice — live venues, organizers or terms of the same name, which the de-duplication
 *   must have made one record.
 */

export interface Verdict {
  acknowledged: number;
  lost: number;
  duplicated: number;
  details: string[];
}

interface EventRow {
  id: number;
  title: string;
  venue: string | null;
  organizers: string | null;
  terms: string | null;
}

export async function verify(db: Connection, ledger: Ledger): Promise<Verdict> {
  const details: string[] = [];
  const [rows] = await db.query(
    `SELECT e.id, e.title, v.title AS venue,
       (SELECT GROUP_CONCAT(o.title SEPARATOR '\\n') FROM event_organizers eo
          JOIN organizers o ON o.id = eo.organizer_id WHERE eo.event_id = e.id) AS organizers,
       (SELECT GROUP_CONCAT(t.name SEPARATOR '\\n') FROM event_terms et
          JOIN terms t ON t.id = et.term_id WHERE et.event_id = e.id) AS terms
     FROM events e LEFT JOIN venues v ON v.id = e.venue_id
     WHERE e.title LIKE 'Chaos %'`,
  );
  const byId = new Map<number, EventRow>();
  const perMarker = new Map<string, number>();
  for (const row of rows as EventRow[]) {
    byId.set(Number(row.id), row);
    const marker = /^Chaos (\S+)/.exec(row.title)?.[1];
    if (marker) perMarker.set(marker, (perMarker.get(marker) ?? 0) + 1);
  }

  let lost = 0;
  const lose = (what: string) => {
    lost++;
    if (details.length < 20) details.push(`lost: ${what}`);
  };
  for (const record of ledger.events) {
    if (!record.created || record.id === null) continue;
    const row = byId.get(record.id);
    if (record.deleted) {
      if (row) lose(`event ${record.id} (${record.marker}) deleted but still there`);
      continue;
    }
    if (!row) {
      if (record.unknown?.kind !== 'delete') lose(`event ${record.id} (${record.marker}) missing`);
      continue;
    }
    const titles = [record.title];
    if (record.unknown?.kind === 'update') titles.push(record.unknown.title);
    if (!titles.includes(row.title)) {
      lose(`event ${record.id}: title "${row.title}", acknowledged "${record.title}"`);
    }
    if (row.venue !== record.venue) lose(`event ${record.id}: venue "${row.venue}"`);
    if (!(row.organizers ?? '').split('\n').includes(record.organizer)) {
      lose(`event ${record.id}: organizers "${row.organizers}"`);
    }
    const terms = (row.terms ?? '').split('\n');
    if (!terms.includes(record.category) || !terms.includes(record.tag)) {
      lose(`event ${record.id}: terms "${row.terms}"`);
    }
  }

  let duplicated = 0;
  const duplicate = (what: string, extra: number) => {
    duplicated += extra;
    if (details.length < 40) details.push(`duplicated: ${what} (${extra + 1} records)`);
  };
  for (const [marker, count] of perMarker) {
    if (count > 1) duplicate(`event ${marker}`, count - 1);
  }
  const names = async (sql: string, what: string) => {
    const [found] = await db.query(sql);
    for (const row of found as { name: string; n: number }[]) {
      if (Number(row.n) > 1) duplicate(`${what} "${row.name}"`, Number(row.n) - 1);
    }
  };
  for (const table of ['venues', 'organizers']) {
    await names(
      `SELECT title AS name, COUNT(*) AS n FROM ${table}
       WHERE status <> 'trash' AND (title LIKE 'Shared %' OR title LIKE 'Burst %'
         OR title LIKE 'Hall %' OR title LIKE 'Org %')
       GROUP BY LOWER(title) HAVING COUNT(*) > 1`,
      table.slice(0, -1),
    );
  }
  await names(
    `SELECT CONCAT(taxonomy, ' ', name) AS name, COUNT(*) AS n FROM terms
     WHERE name LIKE 'Chaos Cat %' OR name LIKE 'chaos-tag-%'
     GROUP BY taxonomy, LOWER(name) HAVING COUNT(*) > 1`,
    'term',
  );
  return { acknowledged: ledger.acknowledged, lost, duplicated, details };
}

/** Whether every node holds the same calendar rows (a cheap checksum per table). */
export async function sameOnEveryNode(connections: readonly Connection[]): Promise<string[]> {
  const sums: string[] = [];
  for (const db of connections) {
    const [rows] = await db.query(
      `SELECT (SELECT COUNT(*) FROM events) AS e, (SELECT COALESCE(SUM(CRC32(title)), 0) FROM events) AS et,
              (SELECT COUNT(*) FROM venues) AS v, (SELECT COUNT(*) FROM organizers) AS o,
              (SELECT COUNT(*) FROM terms) AS t, (SELECT COUNT(*) FROM event_terms) AS l`,
    );
    sums.push(JSON.stringify((rows as unknown[])[0]));
  }
  return sums;
}
