import type { Caller, TestEnv } from '../harness';

/**
 * GraphQL twins of REST writes: after a REST write, the same record read through GraphQL must
 * agree with the REST body — every scalar equal, linked records by id, and every key the REST
 * body leaves out (venue/organizer stripping, json_ld) empty on the GraphQL side. Titles, names,
 * descriptions and excerpts are compared in their rendered form, the one REST sends
 * (docs/contract.md §4, "Rendering on output").
 */

export type Kind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

const COMMON = `id author status date date_utc modified modified_utc url
  description: description_rendered excerpt: excerpt_rendered slug image { id url } global_id`;

export const GQL_FIELDS: Record<Kind, string> = {
  event: `${COMMON} rest_url title: title_rendered all_day start_date end_date utc_start_date utc_end_date
    timezone timezone_abbr cost website show_map show_map_link hide_from_listings sticky featured
    categories { id } tags { id } venue { id } organizer { id }`,
  venue: `${COMMON} venue: venue_rendered address city country province state zip phone website stateprovince
    geo_lat geo_lng show_map show_map_link`,
  organizer: `${COMMON} organizer: organizer_rendered phone website email`,
  category: 'id count description name slug taxonomy parent url',
  tag: 'id count description name slug taxonomy url',
};

export interface GqlRead {
  record: Record<string, any> | null;
  code?: string;
  restCode?: string;
}

/** Reads one record by id through GraphQL (as an administrator unless told otherwise). */
export async function graphqlRead(
  env: TestEnv,
  kind: Kind,
  id: number,
  as: Caller = 'administrator',
): Promise<GqlRead> {
  const result = await env.gql(
    `query($id: Int!) { ${kind}(id: $id) { ${GQL_FIELDS[kind]} } }`,
    { id },
    { as },
  );
  const error = result.errors?.[0];
  if (error) {
    return { record: null, code: error.extensions?.code, restCode: error.extensions?.rest_code };
  }
  return { record: (result.data as Record<string, any>)[kind] };
}

function isEmpty(value: unknown): boolean {
  return value === null || value === '' || value === '0' || value === false;
}

/** Asserts that a REST body and a GraphQL record describe the same state. */
export function expectTwin(rest: Record<string, any>, gql: Record<string, any> | null): void {
  expect(gql).not.toBeNull();
  for (const [key, value] of Object.entries(gql!)) {
    const where = `${key} of record ${gql!.id}`;
    if (!(key in rest)) {
      expect({ [where]: isEmpty(value) }).toEqual({ [where]: true });
    } else if (Array.isArray(value)) {
      expect({ [where]: (rest[key] as { id: number }[]).map((v) => v.id) }).toEqual({
        [where]: value.map((v: { id: number }) => v.id),
      });
    } else if (value !== null && typeof value === 'object') {
      expect({ [where]: rest[key].id }).toEqual({ [where]: value.id });
    } else if (value === null) {
      // null on the GraphQL side: null (redacted flags), false (event image) or [] (event venue)
      const r = rest[key];
      const ok = r === null || r === false || (Array.isArray(r) && r.length === 0);
      expect({ [where]: ok ? 'empty' : r }).toEqual({ [where]: 'empty' });
    } else {
      expect({ [where]: rest[key] }).toEqual({ [where]: value });
    }
  }
}

/** REST write, then GraphQL read: both must agree (the read runs as an administrator). */
export async function expectGraphqlAgrees(
  env: TestEnv,
  kind: Kind,
  rest: Record<string, any>,
): Promise<Record<string, any>> {
  const { record } = await graphqlRead(env, kind, rest.id);
  expectTwin(rest, record);
  return record!;
}
