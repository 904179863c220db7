import type { TestEnv } from '../support/harness';

/**
 * What must hold after every fuzzed request, and a dump of the whole database to prove that a
 * rejected write changed nothing.
 */

/** Every table, every row, in a stable order (credential `last_used_at` stamps aside). */
export async function dumpDatabase(env: TestEnv): Promise<string> {
  const tables = await tableNames(env);
  const parts: string[] = [];
  for (const table of tables) {
    const rows = (await env.db(table).select('*').orderByRaw('1')) as Record<string, unknown>[];
    for (const row of rows) delete row.last_used_at;
    parts.push(`${table} ${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

async function tableNames(env: TestEnv): Promise<string[]> {
  let names: string[];
  if (env.dialect === 'sqlite') {
    const rows = await env.db.raw(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
    );
    names = (rows as { name: string }[]).map((r) => r.name);
  } else {
    const [rows] = await env.db.raw('show tables');
    names = (rows as Record<string, string>[]).map((r) => Object.values(r)[0]!);
  }
  return names.filter((name) => !name.startsWith('knex_migrations')).sort();
}

/** A failed check, with what the request was. */
export class Violation extends Error {}

const STACK = /\n\s+at\s|\bat [\w.<>]+ \(.*:\d+:\d+\)|node_modules|\/src\//;
const DB_INTERNALS =
  /\bSQLITE_[A-Z]|\bER_[A-Z_]{4,}|sqlMessage|sqlState|\bknex\b|better-sqlite3|mysql2/;

/** No stack trace, file path or database internals anywhere in a response text. */
export function assertNoLeak(text: string, where: string): void {
  if (STACK.test(text)) throw new Violation(`${where}: a stack trace or path leaked: ${text}`);
  if (DB_INTERNALS.test(text)) throw new Violation(`${where}: database internals leaked: ${text}`);
}

/** The contract's error envelope with `data.status` equal to the HTTP status. */
export function assertEnvelope(status: number, body: unknown, where: string): void {
  const ok =
    body !== null &&
    typeof body === 'object' &&
    typeof (body as { code?: unknown }).code === 'string' &&
    (body as { code: string }).code !== '' &&
    typeof (body as { message?: unknown }).message === 'string' &&
    typeof (body as { data?: { status?: unknown } }).data === 'object' &&
    (body as { data: { status?: unknown } }).data?.status === status;
  if (!ok)
    throw new Violation(`${where}: not the error envelope for ${status}: ${JSON.stringify(body)}`);
}

/** Headers every response carries. */
export function assertHeaders(headers: Headers, where: string): void {
  for (const name of ['x-content-type-options', 'x-request-id', 'content-security-policy']) {
    if (!headers.get(name)) throw new Violation(`${where}: missing ${name}`);
  }
}
