import type { Queryable, UserRow } from '../../db';

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

export async function listUsers(q: Queryable): Promise<UserRow[]> {
  const rows = await q('users').orderBy('id');
  return rows.map((r: UserRow) => ({ ...r, id: Number(r.id) }));
}

export async function findFirstAdministrator(q: Queryable): Promise<UserRow | undefined> {
  return q('users').where({ role: 'administrator' }).orderBy('id').first();
}
