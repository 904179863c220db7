/**
 * The chaos run's write load: several clients, each a loop of REST writes through the proxy —
 * event creates with inline venues, organizers, categories and tags (some under names every
 * client shares, so de-duplication races across instances and nodes), updates and forced
 * deletes of its own events, and bursts of three simultaneous creates naming one new venue and
 * organizer. Every write's outcome goes into the ledger: acknowledged (2xx), or unknown (an
 * error status or a lost connection: it may or may not have happened, and is never resent).
 */

export interface EventRecord {
  marker: string;
  id: number | null;
  /** The create was answered 201. */
  created: boolean;
  /** The title of the last acknowledged write. */
  title: string;
  venue: string;
  organizer: string;
  category: string;
  tag: string;
  /** An acknowledged forced delete. */
  deleted: boolean;
  /** A later write's outcome is unknown: what it would have done (no further writes then). */
  unknown: null | { kind: 'update'; title: string } | { kind: 'delete' };
}

export class Ledger {
  readonly events: EventRecord[] = [];
  acknowledged = 0;
  unknown = 0;
  readonly statuses = new Map<string, number>();

  note(status: string): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
  }
}

export interface LoadOptions {
  /** The REST namespace, e.g. http://127.0.0.1:8080/wp-json/calendar/events/v1 */
  baseUrl: string;
  token: string;
  clients: number;
  durationMs: number;
  /** Marks this phase's records (markers and burst names). */
  phase: string;
}

const SHARED = 4;

async function call(
  ledger: Ledger,
  url: string,
  token: string,
  method: string,
  body?: unknown,
): Promise<{ ok: boolean; status: number; json: Record<string, unknown> | null }> {
  try {
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    ledger.note(String(response.status));
    let json: Record<string, unknown> | null = null;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = null;
    }
    return { ok: response.ok, status: response.status, json };
  } catch (error) {
    ledger.note(error instanceof Error ? error.name : 'error');
    return { ok: false, status: 0, json: null };
  }
}

/** Runs the load for `durationMs`; answers the acknowledged writes per second. */
export async function runLoad(ledger: Ledger, options: LoadOptions): Promise<number> {
  const { baseUrl, token, phase } = options;
  const deadline = Date.now() + options.durationMs;
  const before = ledger.acknowledged;
  const started = Date.now();
  let bursts = 0;

  const create = async (client: number, seq: number, names?: { venue: string; org: string }) => {
    const marker = `${phase}-${client}-${seq}`;
    const shared = seq % 3 === 0;
    const k = (client + seq) % SHARED;
    const record: EventRecord = {
      marker,
      id: null,
      created: false,
      title: `Chaos ${marker}`,
      venue: names?.venue ?? (shared ? `Shared Hall ${k}` : `Hall ${marker}`),
      organizer: names?.org ?? (shared ? `Shared Org ${k}` : `Org ${marker}`),
      category: `Chaos Cat ${seq % SHARED}`,
      tag: `chaos-tag-${(client + seq) % 6}`,
      deleted: false,
      unknown: null,
    };
    ledger.events.push(record);
    const answer = await call(ledger, `${baseUrl}/events`, token, 'POST', {
      title: record.title,
      status: 'publish',
      start_date: `2027-0${1 + (seq % 9)}-1${seq % 10} 10:00:00`,
      end_date: `2027-0${1 + (seq % 9)}-1${seq % 10} 12:00:00`,
      venue: { venue: record.venue, city: 'Springfield' },
      organizer: [{ organizer: record.organizer }],
      categories: [record.category],
      tags: [record.tag],
    });
    if (answer.ok && answer.status === 201 && typeof answer.json?.id === 'number') {
      record.id = answer.json.id;
      record.created = true;
      ledger.acknowledged++;
    } else {
      ledger.unknown++;
    }
    return record;
  };

  const client = async (index: number) => {
    const mine: EventRecord[] = [];
    let seq = 0;
    while (Date.now() < deadline) {
      const live = mine.filter((r) => r.created && !r.deleted && !r.unknown);
      const roll = Math.random();
      if (live.length === 0 || roll < 0.42) {
        mine.push(await create(index, seq++));
      } else if (roll < 0.72) {
        const record = live[Math.floor(Math.random() * live.length)]!;
        const title = `Chaos ${record.marker} v${seq++}`;
        const answer = await call(ledger, `${baseUrl}/events/${record.id}`, token, 'POST', {
          title,
        });
        if (answer.ok) {
          record.title = title;
          ledger.acknowledged++;
        } else {
          record.unknown = { kind: 'update', title };
          ledger.unknown++;
        }
      } else if (roll < 0.86) {
        const record = live[Math.floor(Math.random() * live.length)]!;
        const answer = await call(
          ledger,
          `${baseUrl}/events/${record.id}?force=true`,
          token,
          'DELETE',
        );
        if (answer.ok) {
          record.deleted = true;
          ledger.acknowledged++;
        } else {
          record.unknown = { kind: 'delete' };
          ledger.unknown++;
        }
      } else {
        // Three at once, naming one venue and organizer nobody has created yet.
        const burst = `${phase}-${index}-${bursts++}`;
        const names = { venue: `Burst Hall ${burst}`, org: `Burst Org ${burst}` };
        const made = await Promise.all([0, 1, 2].map(() => create(index, seq++, names)));
        mine.push(...made);
      }
    }
  };

  await Promise.all(Array.from({ length: options.clients }, (_, i) => client(i)));
  return (ledger.acknowledged - before) / ((Date.now() - started) / 1000);
}
