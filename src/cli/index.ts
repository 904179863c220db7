import { ConfigError } from '../config';
import { createDb, migrateLatest } from '../db';
import { CliError, EXIT, parseOptions, type Command } from './common';
import { commandConfig } from './configuration';
import { exportCommands } from './export';
import { exportParquetCommands } from './export-parquet';
import { feedTokenCommands } from './feed-tokens';
import { importCommands } from './import';
import { seedCommands } from './seed';
import { tokenCommands } from './tokens';
import { userCommands } from './users';

/**
 * `npm run calendar -- <command> [options]`: users, API tokens and application passwords,
 * imports and exports (CSV, iCalendar) and demo data, on the database of the server's
 * configuration (environment, `.env`, defaults; `--database-url` and `--site-url` win), migrated
 * first. Results go to standard output (secrets once, when created), errors to standard error.
 * Exit codes: 0 ok, 1 other failure, 2 usage error (unknown command or option, missing or
 * invalid value), 3 unknown login or credential id.
 */

const COMMANDS: Record<string, Command> = {
  ...userCommands,
  ...tokenCommands,
  ...feedTokenCommands,
  ...importCommands,
  ...exportCommands,
  ...exportParquetCommands,
  ...seedCommands,
};

function help(): string {
  const lines = ['Usage: npm run calendar -- <command> [options]', '', 'Commands:'];
  for (const [name, command] of Object.entries(COMMANDS)) {
    lines.push(`  ${name} ${command.usage}`, `      ${command.summary}`);
  }
  lines.push(
    '',
    'Options of every command:',
    '  --database-url URL  database to use (sqlite:<path> or mysql://…), instead of DATABASE_URL',
    '  --site-url URL      public site address written in URLs, instead of SITE_URL',
    '',
    'Reads the configuration like the server: these options, then the environment, then .env',
    '(or the file ENV_FILE names) in the working directory, then defaults. Applies pending',
    'migrations first.',
    '',
    'Exit codes: 0 ok, 1 other failure (import: some rows failed), 2 usage error,',
    '3 unknown login or id.',
  );
  return lines.join('\n');
}

/** `env`: the process environment by default; `cwd`: where `.env` is looked for. */
export async function runCli(
  argv: string[],
  env?: Record<string, string | undefined>,
  cwd?: string,
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? console.error : console.log)(help());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`Unknown command "${name}". Run "npm run calendar -- help" for the list.`);
    return EXIT.usage;
  }
  let db: ReturnType<typeof createDb> | undefined;
  try {
    const values = parseOptions(command, args);
    const config = commandConfig(values, env, cwd);
    db = createDb({ databaseUrl: config.databaseUrl, poolMax: 1 });
    const applied = await migrateLatest(db);
    if (applied.length) console.error(`Applied ${applied.length} migration(s).`);
    await command.run({ db, config, now: new Date(), out: (line) => console.log(line) }, values);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      console.error(`${name}: ${error.message}`);
      return error.exitCode;
    }
    if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
    else console.error(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.other;
  } finally {
    await db?.destroy();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exitCode = EXIT.other;
    },
  );
}
