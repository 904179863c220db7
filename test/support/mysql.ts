import mysql from 'mysql2/promise';

/** The MySQL server the integration suite uses: MYSQL_URL, or the local MariaDB as root. */
export function mysqlServerUrl(): URL {
  return new URL(process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test');
}

export async function mysqlReachable(): Promise<string | null> {
  const url = mysqlServerUrl();
  try {
    const conn = await mysql.createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      connectTimeout: 3000,
    });
    await conn.end();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Runs statements without a database selected (create/drop databases). */
export async function mysqlAdmin(statements: string[]): Promise<void> {
  const url = mysqlServerUrl();
  const conn = await mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
  try {
    for (const sql of statements) await conn.query(sql);
  } finally {
    await conn.end();
  }
}

export function mysqlDatabaseUrl(database: string): string {
  const url = mysqlServerUrl();
  url.pathname = `/${database}`;
  return url.toString();
}
