import type { ViewerUser } from '../auth/viewer';
import type { AppContext } from '../context';
import type { Db } from '../db/knex';
import { formatSql } from '../lib/dates';
import { DateTime } from 'luxon';
import { countUsers, findUserByLogin, insertUser } from '../repositories/users';
import type { Role } from '../auth/roles';

export const BUILTIN_ADMIN_LOGIN = 'admin';

/** Makes sure an administrator exists (a fresh install has none) and returns it. */
export async function ensureBuiltinAdmin(db: Db, now: Date): Promise<ViewerUser> {
  const existing = await findUserByLogin(db, BUILTIN_ADMIN_LOGIN);
  if (existing) return { id: existing.id, login: existing.login, role: existing.role as Role };
  if ((await countUsers(db)) > 0) {
    const first = await db('users').where({ role: 'administrator' }).orderBy('id').first();
    if (first) return { id: first.id, login: first.login, role: 'administrator' };
  }
  const id = await insertUser(db, {
    login: BUILTIN_ADMIN_LOGIN,
    display_name: 'Administrator',
    email: '',
    role: 'administrator',
    created_at: formatSql(DateTime.fromJSDate(now).toUTC()),
  });
  return { id, login: BUILTIN_ADMIN_LOGIN, role: 'administrator' };
}

/**
 * The user a write runs as. Until credentials exist (auth issue), anonymous writes run as the
 * built-in administrator; the viewer is already threaded through so auth only changes this.
 */
export function writerOf(ctx: AppContext): ViewerUser {
  const user = ctx.viewer.user ?? ctx.builtinAdmin;
  if (!user) throw new Error('no user to write as');
  return user;
}
