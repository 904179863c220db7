import fs from 'node:fs';
import { describeEachDb } from '../support/harness';
import { cli, tempDir } from './import-support';

/** One large file: import:csv streams 10,000 rows through chunks of 1,000 (constant memory). */

const ROWS = 10_000;

describeEachDb('streaming import of a large CSV', (env) => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());

  it(`imports ${ROWS.toLocaleString('en-US')} rows chunk by chunk`, async () => {
    const file = tmp.file('big.csv');
    const out = fs.createWriteStream(file);
    out.write(
      'global_id,title,slug,start_date,end_date,timezone,venue,organizers,categories,tags\n',
    );
    for (let i = 1; i <= ROWS; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      out.write(
        `big.example?id=${i},Event ${i},event-${i},2027-09-${day} 18:00,2027-09-${day} 20:00,` +
          `Europe/Rome,Venue ${i % 50},Crew ${i % 40}; Crew ${(i + 1) % 40},Cat ${i % 7},Tag ${i % 11}\n`,
      );
    }
    await new Promise((resolve) => out.end(resolve));
    const heapBefore = process.memoryUsage().heapUsed;
    const run = await cli(env, 'import:csv', file, '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ rows: ROWS, created: ROWS, updated: 0, failed: 0 });
    expect(Number((await env.db('events').count({ n: '*' }))[0]!.n)).toBe(ROWS);
    expect(Number((await env.db('venues').count({ n: '*' }))[0]!.n)).toBe(50);
    expect(Number((await env.db('organizers').count({ n: '*' }))[0]!.n)).toBe(40);
    const cat = await env.db('terms').where({ name: 'Cat 3' }).first();
    expect(Number(cat.count)).toBe(Math.floor((ROWS - 3) / 7) + 1);
    // Cheap bound: the import holds chunks, not the file.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
  }, 180_000);
});
