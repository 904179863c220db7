import { bulkCreateTerms, importEvents } from '../transfer';
import { findTermsBySlugOrName } from '../terms';
import type { Db } from '../db';
import { CliError, EXIT, JSON_OPTION, usageError, type Command } from './common';
import { importSummaryLine, problemLine, progress, rate } from './import-progress';
import { DEMO_CATEGORIES, demoRecords } from './seed-data';

/**
 * `seed:demo --events N [--seed S]` (docs/import-export.md): a deterministic demo calendar
 * (`seed-data.ts`) through the import engine and its bulk path. Events carry stable keys
 * (`demo:<seed>:<n>`), so running it again updates the same events instead of adding more.
 */

const MAX_EVENTS = 10_000_000;

function count(values: Record<string, unknown>, name: string, fallback: number | null): number {
  const raw = values[name];
  if (raw === undefined && fallback !== null) return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim())) {
    throw usageError(`--${name} must be a whole number.`);
  }
  return Number(raw);
}

/** The category tree, created once (roots before children), matched by name afterwards. */
async function ensureCategories(db: Db): Promise<void> {
  const known = async (names: string[]) =>
    new Set((await findTermsBySlugOrName(db, 'category', names)).map((t) => t.name.toLowerCase()));
  const roots = DEMO_CATEGORIES.map(([root]) => root);
  const haveRoots = await known(roots);
  const missingRoots = roots.filter((r) => !haveRoots.has(r.toLowerCase()));
  if (missingRoots.length)
    await bulkCreateTerms(
      db,
      'category',
      missingRoots.map((name) => ({ name })),
    );
  const rootRows = await findTermsBySlugOrName(db, 'category', roots);
  const children = DEMO_CATEGORIES.flatMap(([root, kids]) =>
    kids.map((name) => ({
      name,
      parent_id: rootRows.find((r) => r.name.toLowerCase() === root.toLowerCase())?.id ?? null,
    })),
  );
  const haveChildren = await known(children.map((c) => c.name));
  const missing = children.filter((c) => !haveChildren.has(c.name.toLowerCase()));
  if (missing.length) await bulkCreateTerms(db, 'category', missing);
}

export const seedCommands: Record<string, Command> = {
  'seed:demo': {
    usage: '--events <N> [--seed <S>] [--json]',
    summary:
      'Fill the database with N deterministic demo events (venues, organizers, categories, tags); a re-run updates them.',
    options: { events: { type: 'string' }, seed: { type: 'string' }, ...JSON_OPTION },
    async run({ db, config, now, out }, values) {
      const events = count(values, 'events', null);
      if (events < 1 || events > MAX_EVENTS) {
        throw usageError(`--events must be between 1 and ${MAX_EVENTS.toLocaleString('en-US')}.`);
      }
      const seed = count(values, 'seed', 1);
      await ensureCategories(db);
      const bar = progress('seed:demo', events);
      const summary = await importEvents(db, config, demoRecords(events, seed, now), {
        now,
        onProblem: (p) => bar.log(problemLine('seed:demo', p)),
        onProgress: (s) => bar.update(s.rows, s.rows),
      }).finally(() => bar.stop());
      if (values.json) {
        out(
          JSON.stringify({
            seed,
            ...summary,
            rows_per_second: rate(summary.rows, summary.seconds),
          }),
        );
      } else {
        out(importSummaryLine(`seed:demo (seed ${seed})`, summary));
      }
      if (summary.failed > 0) {
        throw new CliError(EXIT.other, `${summary.failed} demo events failed (see above).`);
      }
    },
  },
};
