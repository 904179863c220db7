import { DateTime } from 'luxon';
import { chosenTokenExists, createApiToken } from './credentials';
import { isRole, ROLES, type Role } from './roles';
import type { ViewerUser } from './viewer';
import type { Db, Queryable, UserRow } from '../db';
import { formatSql, invalid } from '../lib';
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
 * here so start-up can print it once. Instances starting together race safely: the loser sees
 * the winner's user and does nothing.
 */
export async function bootstrapAdmin(
  db: Db,
  now: Date,
  adminToken?: string,
): Promise<BootstrapResult> {
  if ((await countUsers(db)) > 0) {
    const adminTokenIgnored =
      adminToken !== undefined && !(await chosenTokenExists(db, adminToken));
    const live =
      (await countLiveCredentials(db, 'api_tokens')) +
      (await countLiveCredentials(db, 'app_passwords'));
    return { created: false, adminTokenIgnored, noCredentials: live === 0 };
  }
  try {
    return await db.transaction(async (trx) => {
      const user = await insertNewUser(trx, BOOTSTRAP_ADMIN_LOGIN, 'administrator', now);
      const name = adminToken === undefined ? 'first start' : 'ADMIN_TOKEN';
      const minted = await createApiToken(trx, user.id, name, now, adminToken);
      return {
        created: true as const,
        login: user.login,
        userId: user.id,
        token: adminToken === undefined ? minted.secret : null,
      };
    });
  } catch (error) {
    if ((await countUsers(db)) > 0) {
      return { created: false, adminTokenIgnored: false, noCredentials: false };
    }
    throw error;
  }
}

/**
 * The first administrator (by id), for callers that need a default author (bulk imports). On an
 * empty users table it creates `admin` without credentials: get them with the CLI
 * (`token:add --login admin`), since start-up then finds users and bootstraps nothing.
 */
export async function ensureBuiltinAdmin(db: Db, now: Date): Promise<ViewerUser> {
  const first = await findFirstAdministrator(db);
  if (first) return { id: Number(first.id), login: first.login, role: 'administrator' };
  const user = await insertNewUser(db, BOOTSTRAP_ADMIN_LOGIN, 'administrator', now);
  return { id: user.id, login: user.login, role: 'administrator' };
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
    created_at: formatSql(DateTime.fromJSDate(now).toUTC()),
  };
  return { id: await insertUser(q, row), ...row };
}
