/** The door of src/config: the only reader of the environment, and the project's paths. */
export { ConfigError, loadConfig, type Config, type LogLevel } from './config';
export { schemaDir } from './paths';
