import type { Queryable } from './queryable';
import type { UserRow } from './rows';

export async function findUserById(q: Queryable, id: number): Promise<UserRow | undefined> {
  return q('users').where({ id }).first();
}

export async function findUserByLogin(q: Queryable, login: string): Promise<UserRow | undefined> {
  return q('users').where({ login }).first();
}

export async function countUsers(q: Queryable): Promise<number> {
  const row = await q('users').count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function insertUser(q: Queryable, user: Omit<UserRow, 'id'>): Promise<number> {
  const [id] = await q('users').insert(user);
  return Number(id);
}
