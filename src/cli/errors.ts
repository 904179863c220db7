import { CredentialError, findUserByLogin } from '../users';
import { InvalidParamError } from '../lib';
import type { Db, UserRow } from '../db';
import { notFoundError, usageError } from './common';

/** Service errors that mean "the command line is wrong" become usage errors (exit 2). */
export async function asUsage<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof InvalidParamError) {
      const [name, reason] = Object.entries(error.params)[0] ?? ['value', 'is invalid'];
      throw usageError(`--${name} ${reason}.`);
    }
    if (error instanceof CredentialError) throw usageError(`--token: ${error.message}.`);
    throw error;
  }
}

/** The user of `login`, or exit code 3. */
export async function userByLogin(db: Db, login: string): Promise<UserRow> {
  const user = await findUserByLogin(db, login);
  if (!user) throw notFoundError(`No user with login "${login}" (see user:list).`);
  return { ...user, id: Number(user.id) };
}
