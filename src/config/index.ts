/**
 * The door of src/config: the only reader of the environment (and of `.env`), and the project's
 * paths.
 */
export { ConfigError, loadConfig, type Config, type LogLevel } from './config';
export { schemaDir } from './paths';
export { readEnvironment, resolveConfig, runningInCi, type ConfigSources } from './sources';
