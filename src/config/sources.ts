import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config';

/**
 * Where every entry point (server, cluster workers, CLI, migrate CLI) gets its settings, highest
 * precedence first: command-line overrides, the process environment, a `.env` file in the working
 * directory (or the file `ENV_FILE` names), then the defaults of config.ts. Node's own parser
 * (`util.parseEnv`, the syntax of `node --env-file`) reads the file, so no extra package.
 */

type Env = Record<string, string | undefined>;

export interface ConfigSources {
  /** The process environment; `process.env` by default. */
  env?: Env;
  /** Where `.env` and a relative `ENV_FILE` are looked for; the working directory by default. */
  cwd?: string;
  /** Values that win over everything, such as the CLI's `--database-url` (variable names). */
  overrides?: Env;
}

/** The variables of the env file: `ENV_FILE` (which must exist) or an optional `.env`. */
function fileVariables(env: Env, cwd: string): Record<string, string> {
  const named = env.ENV_FILE?.trim();
  const file = path.resolve(cwd, named || '.env');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!named && (code === 'ENOENT' || code === 'ENOTDIR')) return {};
    throw new ConfigError(`ENV_FILE must name a readable file, got "${file}" (${code ?? error}).`);
  }
  return defined(parseEnv(text));
}

function defined(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

/** The merged variables: the file fills in what the environment leaves unset; overrides win. */
export function readEnvironment(sources: ConfigSources = {}): Record<string, string> {
  const env = sources.env ?? process.env;
  return {
    ...fileVariables(env, sources.cwd ?? process.cwd()),
    ...defined(env),
    ...defined(sources.overrides ?? {}),
  };
}

/** The configuration of this process, from all its sources (see above). */
export function resolveConfig(sources: ConfigSources = {}): Config {
  return loadConfig(readEnvironment(sources));
}

/** Whether this runs under CI (`CI=true`): progress bars are not drawn there. */
export function runningInCi(): boolean {
  return process.env.CI === 'true';
}
