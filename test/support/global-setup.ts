import { mysqlReachable, mysqlServerUrl } from './mysql';

/**
 * Decides once per run whether the MySQL half runs. Unreachable MySQL skips it loudly, or fails
 * the run when REQUIRE_MYSQL=1 (CI). Workers inherit the answer through the environment.
 */
export default async function globalSetup(): Promise<void> {
  const wanted = (process.env.TEST_DATABASES ?? 'sqlite,mysql').split(',');
  process.env.TEST_RUN_ID ??= `${Date.now().toString(36)}${process.pid}`;
  if (!wanted.includes('mysql')) {
    process.env.TEST_MYSQL = 'off';
    return;
  }
  const problem = await mysqlReachable();
  if (problem === null) {
    process.env.TEST_MYSQL = 'on';
    return;
  }
  const where = mysqlServerUrl().host;
  if (process.env.REQUIRE_MYSQL === '1') {
    throw new Error(`REQUIRE_MYSQL=1 but MySQL at ${where} is unreachable: ${problem}`);
  }
  process.env.TEST_MYSQL = 'unreachable';
  const bar = '!'.repeat(78);
  console.warn(
    `\n${bar}\n  MySQL at ${where} is unreachable (${problem}).\n  THE MYSQL HALF OF THE INTEGRATION SUITE IS SKIPPED. Set REQUIRE_MYSQL=1 to fail instead.\n${bar}\n`,
  );
}
