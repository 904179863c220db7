import path from 'node:path';
import { describeEachDb } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * The walk of one create-event request (docs/architecture.md, "A create-event request"): at every
 * SQL statement it sends, the call stack goes transport → domain → storage, and no file of ours
 * stands on it twice with another file between — a file is left only by returning, never
 * re-entered from below (the import graph has no cycles; this shows no callback undoes that),
 * but for the one inversion the architecture names: the transaction's unit of work.
 */

const ROOT = path.resolve(__dirname, '..', '..');
const FRAME = /\(?((?:\/|[A-Za-z]:\\)[^():]+\.ts):\d+:\d+\)?$/;

/** Our files on a stack, innermost first, each run of the same file collapsed to one. */
function ourFiles(stack: string): string[] {
  const files: string[] = [];
  for (const line of stack.split('\n').slice(1)) {
    const file = FRAME.exec(line.trim())?.[1];
    if (!file) continue;
    const rel = path.relative(ROOT, file);
    if (!/^(src|resolvers)\//.test(rel)) continue;
    if (files[files.length - 1] !== rel) files.push(rel);
  }
  return files;
}

/** The room of a file: `events`, `rest`, `resolvers` … */
function roomOf(file: string): string {
  const parts = file.split('/');
  return parts[0] === 'resolvers' ? 'resolvers' : (parts[1] ?? '');
}

const TRANSPORTS = new Set(['rest', 'http', 'graphql', 'resolvers']);

/** Where the one inversion happens: `transact` runs the unit of work it is handed. */
const TRANSACTION_RUNNER = 'src/db/retry.ts';

/**
 * A stack as the walks it holds. The one inversion (docs/architecture.md): `transact` runs the
 * unit of work `writes.ts` hands it, so a statement inside it stands on two walks — the unit of
 * work's, innermost up to the runner, and the request's, from the runner outward. Each must
 * enter no file twice; any other callback that re-entered a file would show in one of them.
 */
function walks(files: string[]): string[][] {
  const runner = files.indexOf(TRANSACTION_RUNNER);
  return runner <= 0 ? [files] : [files.slice(0, runner), files.slice(runner)];
}

describeEachDb('a create-event request walks down and back without re-entering a file', (env) => {
  const rest = new RestClient(env);
  const admin = { as: 'administrator' as const };

  it('every SQL statement of POST /events has a stack with each file once, transport outside', async () => {
    const category = await rest.post('/categories', { name: 'Walk Category' }, admin);
    expect(category.status).toBe(201);
    // The token's first use is recorded once a minute: make it now, outside the walk.
    expect((await rest.get('/events', admin)).status).toBe(200);

    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 200;
    const stacks: string[][] = [];
    const listener = (): void => {
      stacks.push(ourFiles(new Error('walk').stack ?? ''));
    };
    env.db.on('query', listener);
    try {
      const response = await rest.post(
        '/events',
        {
          title: 'The walk',
          start_date: '2027-05-04 19:00:00',
          end_date: '2027-05-04 22:00:00',
          venue: { venue: 'Walk Hall', city: 'Lyon' },
          organizer: [{ organizer: 'Walk Org' }],
          categories: [String(category.body.id)],
          tags: ['walk tag'],
        },
        admin,
      );
      expect(response.status).toBe(201);
    } finally {
      env.db.removeListener('query', listener);
      Error.stackTraceLimit = limit;
    }

    if (process.env.SHOW_WALK) console.log(stacks.map((s) => s.join(' <- ')).join('\n'));
    expect(stacks.length).toBeGreaterThan(5);
    const domainStatements = stacks.filter((files) =>
      files.some((f) => f.startsWith('src/events/')),
    );
    // The event's own statements are sent from inside the events domain, and reach storage
    // through the rooms below it (the transaction's unit of work starts in src/events/writes.ts).
    expect(domainStatements.length).toBeGreaterThan(3);
    const rooms = new Set(domainStatements.flat().map(roomOf));
    for (const room of ['events', 'places', 'terms', 'posts', 'db']) expect(rooms).toContain(room);
    // Before the transaction, the request enters through the REST transport.
    expect(stacks[0]?.map(roomOf)).toEqual(expect.arrayContaining(['rest', 'http', 'users']));
    // Some statement ran inside the unit of work with the whole request outside it.
    expect(stacks.some((files) => walks(files).length === 2)).toBe(true);
    for (const files of stacks) {
      for (const walk of walks(files)) {
        const repeated = walk.filter((f, i) => walk.indexOf(f) !== i);
        expect({ walk, repeated }).toEqual({ walk, repeated: [] });
      }
      // Innermost first: once a transport frame is met, only transport frames follow.
      const firstTransport = files.findIndex((f) => TRANSPORTS.has(roomOf(f)));
      if (firstTransport >= 0) {
        const outer = files.slice(firstTransport).map(roomOf);
        expect(outer.every((room) => TRANSPORTS.has(room))).toBe(true);
      }
    }
  });
});
