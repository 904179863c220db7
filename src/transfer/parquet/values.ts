import type { SchemaElement } from 'hyparquet-writer';
import type { ColumnKind } from './relations';

/**
 * Database values → Parquet values and schema elements. Both drivers hand dates back as
 * `YYYY-MM-DD[ HH:MM:SS]` text (MySQL with `dateStrings`), MySQL decimals as text and counts as
 * text or numbers, booleans as 0/1: each kind reads every form. Every column is OPTIONAL (the
 * star's foreign keys and some attributes are NULL).
 */

const DAY_MS = 86_400_000;

export function schemaElement(name: string, kind: ColumnKind): SchemaElement {
  const optional = { name, repetition_type: 'OPTIONAL' } as const;
  switch (kind) {
    case 'int':
      return { ...optional, type: 'INT64' };
    case 'text':
      return {
        ...optional,
        type: 'BYTE_ARRAY',
        converted_type: 'UTF8',
        logical_type: { type: 'STRING' },
      };
    case 'bool':
      return { ...optional, type: 'BOOLEAN' };
    case 'double':
      return { ...optional, type: 'DOUBLE' };
    case 'date':
      return { ...optional, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'local':
      // No converted type: TIMESTAMP_MILLIS would declare the value a UTC instant.
      return {
        ...optional,
        type: 'INT64',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MILLIS' },
      };
    case 'utc':
      return {
        ...optional,
        type: 'INT64',
        converted_type: 'TIMESTAMP_MILLIS',
        logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' },
      };
  }
}

/** Milliseconds of a `YYYY-MM-DD[ HH:MM:SS]` wall clock read as if it were UTC. */
function wallClockMillis(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  const text = String(value);
  const millis = Date.parse(
    `${text.slice(0, 10)}T${text.length > 10 ? text.slice(11, 19) : '00:00:00'}Z`,
  );
  if (Number.isNaN(millis)) throw new Error(`not a date: ${text}`);
  return millis;
}

export function parquetValue(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'int':
      return BigInt(typeof value === 'number' ? Math.trunc(value) : String(value));
    case 'text':
      return String(value);
    case 'bool':
      return value === true || value === 1 || value === '1' || value === 1n;
    case 'double':
      return Number(value);
    case 'date':
      return Math.floor(wallClockMillis(value) / DAY_MS);
    case 'local':
    case 'utc':
      return BigInt(wallClockMillis(value));
  }
}
