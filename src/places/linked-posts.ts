import type DataLoader from 'dataloader';
import {
  assertCanAttribute,
  assertCanChangeLinked,
  assertCanCreate,
  editScope,
  linkedRecordAuthor,
} from '../users';
import type { AppContext } from '../context';
import { inTrash, invalid, MissingParamError, notFound } from '../lib';
import { findLiveByName, linkedByOthers, type LinkedTable } from './store/linked-post-list';
import {
  assertReadable,
  asSingleRead,
  checkAuthor,
  deletePost,
  findById,
  findByIds,
  findBySlug,
  has,
  insertPost,
  modifiedNow,
  resolveImage,
  slugBase,
  transactWithImages,
  uniqueSlug,
  updatePost,
  type PublishingInput,
} from '../posts';
import { asEventProblem, checkPlaceName, linkable, placeColumns } from './rules';
import type { NameLock, PostRow, Queryable } from '../db';

/**
 * What venues and organizers share: reads, writes with de-duplication, trash. Each resource
 * describes itself with a `LinkedKind`; its own columns are the only thing it implements.
 */

export type LinkedResource = 'venue' | 'organizer';

/** Fields every venue/organizer write has; the name is keyed by the resource (`venue`, …). */
export interface LinkedInput
  extends PublishingInput, Partial<Record<LinkedResource, string | null>> {}

export interface LinkedKind<Row extends PostRow, Input extends LinkedInput> {
  resource: LinkedResource;
  table: LinkedTable;
  /** Columns a list `search` looks into (some single one must hold every word). */
  searchFields: readonly string[];
  /** Validated columns for the resource's own fields present in `input`; absent ones untouched. */
  ownColumns(input: Input): Record<string, unknown>;
  loader(ctx: AppContext): DataLoader<number, Row | undefined>;
}

/** A record identified by id (`venue(id:)`) or by slug (`venue_by_slug(slug:)`). */
export type RecordKey = number | string;

/** The record a write changes, locked until its transaction ends. */
async function findRecord<Row extends PostRow>(
  q: Queryable,
  kind: LinkedKind<Row, LinkedInput>,
  key: RecordKey,
): Promise<Row> {
  const row =
    typeof key === 'number'
      ? await findById<Row>(q, kind.table, key, true)
      : await findBySlug<Row>(q, kind.table, key, true);
  if (!row) throw notFound(kind.resource, key);
  return row;
}

/** Single read by id or slug: 404 when unknown, then the caller must be allowed to see it. */
export async function readLinked<Row extends PostRow>(
  ctx: AppContext,
  kind: LinkedKind<Row, LinkedInput>,
  key: RecordKey,
): Promise<Row> {
  const row =
    typeof key === 'number'
      ? await kind.loader(ctx).load(key)
      : await findBySlug<Row>(ctx.db, kind.table, key);
  if (!row) throw notFound(kind.resource, key);
  assertReadable(ctx, kind.resource, row);
  return asSingleRead(row);
}

/** Runs one write in one transaction (see `retry.ts`), then drops the request's cached rows. */
async function write<T>(
  ctx: AppContext,
  names: NameLock[],
  fn: (q: Queryable) => Promise<T>,
): Promise<T> {
  const result = await transactWithImages(ctx, { names }, fn);
  ctx.resetLoaders();
  return result;
}

/**
 * Shared publishing columns present in `input` (on create, defaults for the absent ones) and the
 * resource's own (`places/rules.ts`). Runs before the permission checks (bad input is a 400 for
 * anyone), so the caller may be anonymous. `current`: the stored record, on update.
 */
function columnsOf<Row extends PostRow, Input extends LinkedInput>(
  ctx: AppContext,
  q: Queryable,
  kind: LinkedKind<Row, Input>,
  input: Input,
  current: Row | null,
): Promise<Record<string, unknown>> {
  const creating = current === null;
  const writer = {
    viewer: ctx.viewer,
    siteZone: ctx.config.siteTimezone,
    now: ctx.now(),
    status: current?.status,
  };
  return placeColumns(writer, input, creating, kind.ownColumns, async () => {
    if (input.author != null) return checkAuthor(q, input.author);
    return creating ? (ctx.viewer.user?.id ?? 0) : undefined;
  });
}

/** The caller may edit or delete `row`, and no event of another author links it (403 else). */
async function assertCanChange<Row extends PostRow>(
  ctx: AppContext,
  q: Queryable,
  kind: LinkedKind<Row, LinkedInput>,
  row: Row,
): Promise<void> {
  const author = linkedRecordAuthor(ctx.viewer);
  const shared = author !== null && (await linkedByOthers(q, kind.table, row.id, author));
  assertCanChangeLinked(ctx, row, shared);
}

async function reload<Row extends PostRow>(q: Queryable, table: LinkedTable, id: number) {
  const row = await findById<Row>(q, table, id);
  if (!row) throw new Error(`${table} ${id} vanished inside its own transaction`);
  return row;
}

/**
 * Creates a record inside `q`, or returns the live record with the same name (case-insensitive)
 * and, when one is given, the same description, unchanged. Only a published record or one the
 * caller may edit is reused: nobody can plant a draft for someone else's write to adopt. Every
 * field is validated first, so bad input is rejected even when a duplicate exists. The one path
 * of `create_*` and of records created inline by event writes (those are covered by the event's
 * own permission check, like the reference); `authorize` runs between validation and any write.
 */
async function createOrReuse<Row extends PostRow, Input extends LinkedInput>(
  ctx: AppContext,
  q: Queryable,
  kind: LinkedKind<Row, Input>,
  input: Input,
  authorize: (cols: Record<string, unknown>) => void = () => {},
): Promise<Row> {
  const title = checkPlaceName(kind.resource, input[kind.resource]);
  const cols = await columnsOf(ctx, q, kind, input, null);
  authorize(cols);
  const description = input.description ? String(cols.description) : null;
  const reusable = editScope(ctx.viewer);
  const existing = await findLiveByName<Row>(q, kind.table, title, description, reusable);
  if (existing) return existing;
  // Resolved only now: an image URL creates an image row, which a duplicate must not leave.
  if (has(input, 'image')) cols.image_id = await resolveImage(ctx, q, 'image', input.image);
  cols.title = title;
  const { id } = await insertPost(q, kind.table, { ...cols, slug: slugBase(input.slug, title) });
  return reload<Row>(q, kind.table, id);
}

export async function createLinked<Row extends PostRow, Input extends LinkedInput>(
  ctx: AppContext,
  kind: LinkedKind<Row, Input>,
  input: Input,
): Promise<Row> {
  if (input[kind.resource] === undefined || input[kind.resource] === null) {
    throw new MissingParamError([kind.resource]);
  }
  return write(ctx, nameLocks(kind.table, input[kind.resource]), (q) =>
    createOrReuse(ctx, q, kind, input, (cols) => {
      assertCanCreate(ctx);
      assertCanAttribute(ctx, cols.author_id as number);
    }),
  );
}

/**
 * The name lock a create-or-reuse of a record named `name` needs (none without a name): taken
 * before the transaction reads anything, so the de-duplicating lookup sees every committed
 * record of that name (`retry.ts`).
 */
export function nameLocks(table: LinkedTable, name: unknown): NameLock[] {
  return typeof name === 'string' ? [{ scope: table, name }] : [];
}

/** Partial update: only fields present change; renaming to another record's name is fine. */
export async function updateLinked<Row extends PostRow, Input extends LinkedInput>(
  ctx: AppContext,
  kind: LinkedKind<Row, Input>,
  key: RecordKey,
  input: Input,
): Promise<Row> {
  return write(ctx, [], async (q) => {
    const row = await findRecord(q, kind, key);
    const cols = await columnsOf(ctx, q, kind, input, row);
    if (has(input, kind.resource)) cols.title = checkPlaceName(kind.resource, input[kind.resource]);
    if (input.slug) {
      const title = typeof cols.title === 'string' ? cols.title : row.title;
      cols.slug = await uniqueSlug(q, kind.table, input.slug, title, row.id);
    }
    if (has(input, 'image')) cols.image_id = await resolveImage(ctx, q, 'image', input.image);
    await assertCanChange(ctx, q, kind, row);
    assertCanAttribute(ctx, cols.author_id as number | undefined);
    await updatePost(q, kind.table, row.id, cols);
    return reload<Row>(q, kind.table, row.id);
  });
}

/**
 * Trash (links kept, so the record can come back; events stop showing it because nested reads
 * filter with `canSee`), or with `force` delete for good: the foreign keys unlink events
 * (`venue_id` SET NULL, `event_organizers` CASCADE). Answers the record as trashed / as it was.
 */
export async function deleteLinked<Row extends PostRow>(
  ctx: AppContext,
  kind: LinkedKind<Row, LinkedInput>,
  key: RecordKey,
  force: boolean,
): Promise<Row> {
  return write(ctx, [], async (q) => {
    const row = await findRecord(q, kind, key);
    await assertCanChange(ctx, q, kind, row);
    if (force) {
      await deletePost(q, kind.table, row.id);
      return row;
    }
    if (row.status === 'trash') throw inTrash(kind.resource);
    const modified = modifiedNow(ctx.config.siteTimezone, ctx.now());
    await updatePost(q, kind.table, row.id, { status: 'trash', ...modified });
    return reload<Row>(q, kind.table, row.id);
  });
}

/**
 * The record an event write links, inside the event's transaction `q`: `id` must name a live
 * record; otherwise the fields create (or de-duplicate) one. Problems with the nested fields are
 * reported on the event's own parameter (`venue` / `organizer`), where the client sent them.
 * `known`: the records of the ids the write names, when the caller read them all in one query
 * (`linkedRowsById`); an id missing from it is unknown.
 */
export async function linkForEvent<Row extends PostRow, Input extends LinkedInput>(
  ctx: AppContext,
  q: Queryable,
  kind: LinkedKind<Row, Input>,
  input: Input & { id?: number | null },
  known?: ReadonlyMap<number, Row>,
): Promise<Row> {
  if (input.id !== undefined && input.id !== null) {
    const row = known ? known.get(input.id) : await findById<Row>(q, kind.table, input.id);
    return linkable(kind.resource, input.id, row);
  }
  if (input[kind.resource] === undefined || input[kind.resource] === null) {
    throw invalid(kind.resource, 'needs an id or a name');
  }
  try {
    return await createOrReuse(ctx, q, kind, input);
  } catch (err) {
    throw asEventProblem(kind.resource, err);
  }
}

/** The records of every `id` the inputs name, read in one query (for `linkForEvent`). */
export async function linkedRowsById<Row extends PostRow, Input extends LinkedInput>(
  q: Queryable,
  kind: LinkedKind<Row, Input>,
  inputs: readonly { id?: number | null }[],
): Promise<Map<number, Row>> {
  const ids = [
    ...new Set(inputs.flatMap((i) => (i.id === undefined || i.id === null ? [] : [i.id]))),
  ];
  return new Map((await findByIds<Row>(q, kind.table, ids)).map((row) => [row.id, row]));
}

/** Refuses, as an event write would, the first of `ids` that names no live record of `kind`. */
export async function assertLinkable<Row extends PostRow, Input extends LinkedInput>(
  q: Queryable,
  kind: LinkedKind<Row, Input>,
  ids: readonly number[],
): Promise<void> {
  const known = await linkedRowsById(
    q,
    kind,
    ids.map((id) => ({ id })),
  );
  for (const id of ids) linkable(kind.resource, id, known.get(id));
}
