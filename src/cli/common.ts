import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../config';
import type { Db } from '../db';

/** What every command gets and how it reports. */

export interface CommandContext {
  db: Db;
  /** The configuration of the environment the command runs in (DATABASE_URL, SITE_URL …). */
  config: Config;
  now: Date;
  /** Standard output: results (secrets included, once). */
  out: (line: string) => void;
}

export interface Command {
  /** One line for the help text, after the command name. */
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Names of the positional arguments the command takes (`import:csv FILE`), in order. */
  positionals?: string[];
  run(ctx: CommandContext, values: Record<string, string | boolean | undefined>): Promise<void>;
}

/** Exit codes scripts can rely on. */
export const EXIT = { ok: 0, other: 1, usage: 2, notFound: 3 } as const;

/** A failure with its exit code and one sentence for standard error. */
export class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

export function usageError(message: string): CliError {
  return new CliError(EXIT.usage, message);
}

export function notFoundError(message: string): CliError {
  return new CliError(EXIT.notFound, message);
}

export const JSON_OPTION = { json: { type: 'boolean' } } as const;

/**
 * Options every command takes (each opens the database; exports and seeds write URLs). They win
 * over the environment and `.env` (src/config/sources.ts); each names the variable it replaces.
 */
export const GLOBAL_OPTIONS = {
  'database-url': { type: 'string' },
  'site-url': { type: 'string' },
} as const;

export const GLOBAL_OPTION_VARIABLES: Record<keyof typeof GLOBAL_OPTIONS, string> = {
  'database-url': 'DATABASE_URL',
  'site-url': 'SITE_URL',
};

/**
 * Parses a command's options and the global ones strictly: unknown options and stray arguments
 * are usage errors.
 */
export function parseOptions(
  command: Command,
  args: string[],
): Record<string, string | boolean | undefined> {
  const names = command.positionals ?? [];
  let parsed: ReturnType<typeof parseArgs>;
  try {
    const options = { ...GLOBAL_OPTIONS, ...command.options };
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (parsed.positionals.length > names.length) {
    throw usageError(`Unexpected argument "${parsed.positionals[names.length]}".`);
  }
  names.forEach((name, i) => {
    if (parsed.positionals[i] !== undefined) values[name] = parsed.positionals[i];
  });
  return values;
}

export function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw usageError(`--${name} is required.`);
  return value.trim();
}

export function optional(values: Record<string, unknown>, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function positiveId(values: Record<string, unknown>, name: string): number {
  const raw = required(values, name);
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw usageError(`--${name} must be a positive id.`);
  return Number(raw);
}

/** The rows as JSON with `--json`, else as a text table: each column a heading and a cell. */
export function printRows<R>(
  out: (line: string) => void,
  json: unknown,
  rows: readonly R[],
  columns: readonly (readonly [string, (row: R) => string])[],
): void {
  if (json) {
    out(JSON.stringify(rows));
    return;
  }
  const cells = rows.map((row) => columns.map(([, cell]) => cell(row)));
  for (const line of table([columns.map(([heading]) => heading), ...cells])) out(line);
}

/** Fixed-width columns for listings. */
export function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}
