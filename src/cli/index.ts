import { ConfigError, loadConfig } from '../config';
import { createDb, migrateLatest } from '../db';
import { CliError, EXIT, parseOptions, type Command } from './common';
import { exportCommands } from './export';
import { importCommands } from './import';
import { seedCommands } from './seed';
import { tokenCommands } from './tokens';
import { userCommands } from './users';

/**
 * `npm run calendar -- <command> [options]`: users, API tokens and application passwords,
 * imports and exports (CSV, iCalendar) and demo data, on the
 * database of DATABASE_URL (migrated first). Results go to standard output (secrets once, when
 * created), errors to standard error. Exit codes: 0 ok, 1 other failure, 2 usage error
 * (unknown command or option, missing or invalid value), 3 unknown login or credential id.
 */

const COMMANDS: Record<string, Command> = {
  ...userCommands,
  ...tokenCommands,
  ...importCommands,
  ...exportCommands,
  ...seedCommands,
};

function help(): string {
  const lines = ['Usage: npm run calendar -- <command> [options]', '', 'Commands:'];
  for (const [name, command] of Object.entries(COMMANDS)) {
    lines.push(`  ${name} ${command.usage}`, `      ${command.summary}`);
  }
  lines.push(
    '',
    'Uses DATABASE_URL like the server and applies pending migrations first.',
    'Exit codes: 0 ok, 1 other failure (import: some rows failed), 2 usage error,',
    '3 unknown login or id.',
  );
  return lines.join('\n');
}

export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
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
    const config = loadConfig(env);
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
