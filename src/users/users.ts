import { chosenTokenExists, createApiToken } from './credentials';
import { isRole, ROLES, type Role } from './roles';
import type { ViewerUser } from './viewer';
import { transact, type Db, type Queryable, type UserRow } from '../db';
import { invalid, utcSql } from '../lib';
import { countLiveCredentials } from './store/credentials';
import { countUsers, findFirstAdministrator, findUserByLogin, insertUser } from './store/users';

/** Users: the first administrator of a fresh install, and the rules of new users (CLI). */

const BOOTSTRAP_ADMIN_LOGIN = 'admin';

/** What start-up did about the first administrator. */
export type BootstrapResult =
  /** The users table was empty: `admin` was created. `token` is set when it was generated. */
  | { created: true; login: string; userId: number; token: string | null }
  /**
   * Users existed. `adminTokenIgnored`: ADMIN_TOKEN is set but is no live token.
   * `noCredentials`: no user has a live token or application password (an install from before
   * credentials existed, or everything revoked): nobody can write until the CLI makes one.
   */
  | { created: false; adminTokenIgnored: boolean; noCredentials: boolean };

/**
 * When the users table is empty, creates the administrator `admin` with a bearer token: the
 * value of ADMIN_TOKEN when given (stored hashed, never echoed), else a generated one returned
 * here so start-up can print it once.
 *
 * Instances starting together on an empty database (or on several nodes of a cluster) all see
 * an empty table and all insert `admin`; the unique index on `login` lets one insert commit.
 * The others lose at that index (MySQL, SQLite) or at certification (Galera: a deadlock error),
 * and `transact` runs their transaction again on a fresh snapshot, which holds the winner's
 * `admin`: they report an install that has users. Nobody decides on a read made outside the
 * transaction that writes, so no racer fails start-up.
 */
export async function bootstrapAdmin(
  db: Db,
  now: Date,
  adminToken?: string,
): Promise<BootstrapResult> {
  // The common case (every start after the first) stays read-only: no write transaction.
  if ((await countUsers(db)) > 0) return existingInstall(db, adminToken);
  return transact(db, async (trx): Promise<BootstrapResult> => {
    if ((await countUsers(trx)) > 0) return existingInstall(trx, adminToken);
    const user = await insertNewUser(trx, BOOTSTRAP_ADMIN_LOGIN, 'administrator', now);
    const name = adminToken === undefined ? 'first start' : 'ADMIN_TOKEN';
    const minted = await createApiToken(trx, user.id, name, now, adminToken);
    return {
      created: true,
      login: user.login,
      userId: user.id,
      token: adminToken === undefined ? minted.secret : null,
    };
  });
}

/** What start-up reports about an install that has users already. */
async function existingInstall(q: Queryable, adminToken?: string): Promise<BootstrapResult> {
  const adminTokenIgnored = adminToken !== undefined && !(await chosenTokenExists(q, adminToken));
  const live =
    (await countLiveCredentials(q, 'api_tokens')) +
    (await countLiveCredentials(q, 'app_passwords'));
  return { created: false, adminTokenIgnored, noCredentials: live === 0 };
}

/**
 * The first administrator (by id), for callers that need a default author (bulk imports). On an
 * empty users table it creates `admin` without credentials: get them with the CLI
 * (`token:add --login admin`), since start-up then finds users and bootstraps nothing. Two
 * callers creating it at once meet at the unique `login`, as in `bootstrapAdmin`: the loser's
 * run is repeated and finds the winner's.
 */
export async function ensureBuiltinAdmin(db: Db, now: Date): Promise<ViewerUser> {
  const found = await findFirstAdministrator(db);
  if (found) return { id: Number(found.id), login: found.login, role: 'administrator' };
  return transact(db, async (trx): Promise<ViewerUser> => {
    const first = await findFirstAdministrator(trx);
    if (first) return { id: Number(first.id), login: first.login, role: 'administrator' };
    const user = await insertNewUser(trx, BOOTSTRAP_ADMIN_LOGIN, 'administrator', now);
    return { id: user.id, login: user.login, role: 'administrator' };
  });
}

/** Logins: what HTTP Basic can carry (no `:`), short enough for the column. */
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,59}$/;

function checkLogin(login: string): string {
  if (!LOGIN.test(login)) {
    throw invalid(
      'login',
      'must be 1 to 60 letters, digits or . _ @ + - (starting with a letter or digit)',
    );
  }
  return login;
}

export function checkRole(role: string): Role {
  if (!isRole(role)) throw invalid('role', `must be one of ${ROLES.join(', ')}`);
  return role;
}

/** Creates a user after checking login and role; a taken login is a 400 on `login`. */
export async function insertNewUser(
  q: Queryable,
  login: string,
  role: string,
  now: Date,
  displayName = login,
): Promise<UserRow> {
  checkLogin(login);
  checkRole(role);
  if (await findUserByLogin(q, login)) throw invalid('login', `"${login}" is already taken`);
  const row: Omit<UserRow, 'id'> = {
    login,
    display_name: displayName,
    email: '',
    role,
    created_at: utcSql(now),
  };
  return { id: await insertUser(q, row), ...row };
}
