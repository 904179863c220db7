import { GraphQLDateTime } from 'graphql-scalars';
import type { Resolvers } from '../src/graphql/generated/resolvers-types';
import type { PostRow } from '../src/db';

/**
 * The `DateTime` fields (schema/time.graphql): the instants of the rows' UTC columns
 * (`YYYY-MM-DD HH:MM:SS`, the REST contract's `utc_*` and `*_utc` values), which graphql-scalars
 * answers as ISO 8601 in UTC.
 */

function instant(utcSql: string): Date {
  return new Date(`${utcSql.slice(0, 19).replace(' ', 'T')}Z`);
}

const postTimes = {
  published_at: (row: PostRow) => instant(row.date_utc),
  modified_at: (row: PostRow) => instant(row.modified_utc),
};

export const timeResolvers: Resolvers = {
  DateTime: GraphQLDateTime,
  Event: {
    ...postTimes,
    starts_at: (row) => instant(row.utc_start_date),
    ends_at: (row) => instant(row.utc_end_date),
  },
  Venue: postTimes,
  Organizer: postTimes,
};
