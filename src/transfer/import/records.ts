import type { EventFlagFields } from '../../events';
import type { OrganizerFields, VenueFields } from '../../places';

/** What readers (CSV, ICS, the demo generator) hand the import engine, and what it reports. */

/** A venue as a source gives it: the id of an existing venue, or a name with its fields. */
export interface ImportVenue extends VenueFields {
  id?: number | null;
  venue?: string | null;
}

/** An organizer as a source gives it: an existing id, or a name with its fields. */
export interface ImportOrganizer extends OrganizerFields {
  id?: number | null;
  organizer?: string | null;
}

/** Event fields as sources give them; a key that is absent was not given (kept on update). */
export interface ImportEventFields extends EventFlagFields {
  title: string;
  start_date: string;
  end_date: string;
  timezone?: string | null;
  all_day?: boolean | null;
  description?: string | null;
  excerpt?: string | null;
  slug?: string | null;
  status?: string | null;
  cost?: string | null;
  website?: string | null;
  /** Publication instant (UTC), used on create only. */
  date_utc?: string | null;
}

export interface ImportProblem {
  line: number;
  /** The source's name of the offending column or property, when one is to blame. */
  column?: string;
  reason: string;
  /** A warning: the record was imported all the same. */
  warning?: boolean;
}

export interface ImportRecord {
  line: number;
  /** External id; null: always create. */
  key: string | null;
  fields: ImportEventFields;
  /** undefined: not given (kept on update); null: no venue. */
  venue?: ImportVenue | null;
  organizers?: ImportOrganizer[];
  categories?: string[];
  tags?: string[];
  /** Things the reader could not carry over (a recurrence rule …): reported, not fatal. */
  warnings?: ImportProblem[];
}

/** What readers yield: a record, or a row they could not read at all. */
export type ImportItem = ImportRecord | { problem: ImportProblem };

export interface ImportSummary {
  /** Records read (good and bad). */
  rows: number;
  created: number;
  updated: number;
  /** Rows that matched an event and would change nothing in it: not written. */
  unchanged: number;
  failed: number;
  warnings: number;
  seconds: number;
}

export interface ImportOptions {
  /** Records per chunk (one bulk transaction for its creates); default 1,000. */
  chunkSize?: number;
  now?: Date;
  /** The source's name of an event field (`start_date` → `DTSTART`), for problem reports. */
  columnOf?: (field: string) => string;
  onProblem?: (problem: ImportProblem) => void;
  /** After each chunk. */
  onProgress?: (summary: ImportSummary) => void;
  /** What became of each row, as it is decided (failed rows as they are found). */
  onRow?: (row: ImportRow) => void;
  /** Decide and report every row, write nothing. */
  dryRun?: boolean;
}

export type ImportAction = 'created' | 'updated' | 'unchanged' | 'failed';

/** One row's outcome: `id` of the event it updates (or leaves unchanged). */
export interface ImportRow {
  line: number;
  action: ImportAction;
  id: number | null;
  title: string | null;
}
