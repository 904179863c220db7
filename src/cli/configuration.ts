import { ConfigError, resolveConfig, type Config } from '../config';
import { GLOBAL_OPTION_VARIABLES, GLOBAL_OPTIONS, usageError } from './common';

/**
 * The configuration a command runs with: the server's (environment, then `.env` or ENV_FILE in
 * the working directory, then defaults), with `--database-url` and `--site-url` winning over
 * both. A flag's bad value is a usage error naming the flag, not the variable.
 */
export function commandConfig(
  values: Record<string, string | boolean | undefined>,
  env?: Record<string, string | undefined>,
  cwd?: string,
): Config {
  const overrides: Record<string, string> = {};
  for (const flag of Object.keys(GLOBAL_OPTIONS) as (keyof typeof GLOBAL_OPTIONS)[]) {
    const value = values[flag];
    if (typeof value !== 'string') continue;
    if (value.trim() === '') throw usageError(`--${flag} must not be empty.`);
    overrides[GLOBAL_OPTION_VARIABLES[flag]] = value.trim();
  }
  try {
    return resolveConfig({ env, cwd, overrides });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const [flag, variable] of Object.entries(GLOBAL_OPTION_VARIABLES)) {
      if (variable in overrides && error.message.startsWith(`${variable} must`)) {
        throw usageError(`--${flag}${error.message.slice(variable.length)}`);
      }
    }
    throw error;
  }
}
