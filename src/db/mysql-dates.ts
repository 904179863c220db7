import { createRequire } from 'node:module';

/**
 * DATETIME values as strings in the binary protocol, without mysql2's per-value arrays.
 *
 * With `dateStrings` (knex.ts), mysql2 turns each DATETIME of a prepared statement's row into
 * text by padding every component to a string, joining arrays and concatenating
 * (`Packet.readDateTimeString`): 5–6 % of the CPU of a 50-event page, whose rows carry 12–20
 * such values each, and the resulting concatenated strings are flattened again when the body is
 * serialised. This writes the common values — a date, or a date and a time without fraction — as
 * ASCII digits into a scratch buffer and reads them back as one flat string: the same text.
 * Anything else (zero dates, fractions, a longer separator) goes to mysql2's own reader.
 *
 * It replaces one method of mysql2's packet reader, so it checks itself first: installed only
 * when mysql2 still has the method and both answer alike on a set of sample values (else mysql2's
 * is left alone: slower, never different). test/db/mysql-dates.test.ts compares the two on
 * generated values and on MariaDB's rows, read once with each.
 */

interface PacketLike {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readInt16(): number;
}

type DateTimeReader = (
  this: PacketLike,
  decimals: number,
  timeSep: string | null,
  columnType: number,
) => string;

interface PacketClass {
  new (id: number, buffer: Buffer, start: number, end: number): PacketLike;
  prototype: { readDateTimeString: DateTimeReader };
}

// mysql2's column types (lib/constants/types.js) that carry a time of day.
const TIMESTAMP = 7;
const DATETIME = 12;

const scratch = Buffer.alloc(19);

function writeDate(y: number, m: number, d: number): void {
  scratch[0] = 48 + Math.floor(y / 1000);
  scratch[1] = 48 + (Math.floor(y / 100) % 10);
  scratch[2] = 48 + (Math.floor(y / 10) % 10);
  scratch[3] = 48 + (y % 10);
  scratch[4] = 45; // -
  scratch[5] = 48 + Math.floor(m / 10);
  scratch[6] = 48 + (m % 10);
  scratch[7] = 45;
  scratch[8] = 48 + Math.floor(d / 10);
  scratch[9] = 48 + (d % 10);
}

function writeTime(separator: number, h: number, m: number, s: number): void {
  scratch[10] = separator;
  scratch[11] = 48 + Math.floor(h / 10);
  scratch[12] = 48 + (h % 10);
  scratch[13] = 58; // :
  scratch[14] = 48 + Math.floor(m / 10);
  scratch[15] = 48 + (m % 10);
  scratch[16] = 58;
  scratch[17] = 48 + Math.floor(s / 10);
  scratch[18] = 48 + (s % 10);
}

/** The reader for `original`: lengths 4 (a date) and 7 (and a time) here, the rest to it. */
export function fastDateTimeReader(original: DateTimeReader): DateTimeReader {
  return function readDateTimeString(this: PacketLike, decimals, timeSep, columnType) {
    const length = this.buffer[this.offset];
    if ((length !== 4 && length !== 7) || (timeSep !== null && timeSep.length > 1)) {
      return original.call(this, decimals, timeSep, columnType);
    }
    this.offset += 1;
    const y = this.readInt16();
    const m = this.readInt8();
    const d = this.readInt8();
    writeDate(y, m, d);
    if (length === 7) {
      const h = this.readInt8();
      const min = this.readInt8();
      const s = this.readInt8();
      writeTime(timeSep ? timeSep.charCodeAt(0) : 32, h, min, s);
      return scratch.toString('latin1', 0, 19);
    }
    // A date alone: a DATETIME or TIMESTAMP at midnight gets mysql2's " 00:00:00" (always a space).
    if (columnType !== DATETIME && columnType !== TIMESTAMP)
      return scratch.toString('latin1', 0, 10);
    writeTime(32, 0, 0, 0);
    return scratch.toString('latin1', 0, 19);
  };
}

/**
 * Binary-protocol DATETIME values to check the reader on: a packet's 4-byte header, the length
 * byte, then the components.
 */
function samples(): Buffer[] {
  const values: Buffer[] = [];
  for (const [y, mo, d, h, mi, s] of [
    [2026, 11, 26, 3, 42, 4],
    [1, 1, 1, 0, 0, 1],
    [999, 12, 31, 23, 59, 59],
    [9999, 9, 9, 9, 9, 9],
    [2000, 2, 29, 12, 0, 0],
  ] as const) {
    values.push(Buffer.from([0, 0, 0, 0, 7, y & 255, y >> 8, mo, d, h, mi, s]));
    values.push(Buffer.from([0, 0, 0, 0, 4, y & 255, y >> 8, mo, d]));
  }
  return values;
}

/** Both readers on one value: text and where each left the packet. */
export function readBoth(
  Packet: PacketClass,
  original: DateTimeReader,
  fast: DateTimeReader,
  bytes: Buffer,
  timeSep: string | null,
  columnType: number,
): [string, number, string, number] {
  const a = new Packet(0, bytes, 0, bytes.length);
  const b = new Packet(0, bytes, 0, bytes.length);
  const textA = original.call(a, 0, timeSep, columnType);
  const textB = fast.call(b, 0, timeSep, columnType);
  return [textA, a.offset, textB, b.offset];
}

let state: { Packet: PacketClass; original: DateTimeReader; installed: boolean } | undefined;

/** mysql2's packet class, or null when its layout is not the one this module knows. */
function packetClass(): PacketClass | null {
  try {
    const Packet = createRequire(require.resolve('mysql2'))(
      './lib/packets/packet.js',
    ) as PacketClass;
    return typeof Packet.prototype.readDateTimeString === 'function' ? Packet : null;
  } catch {
    return null;
  }
}

/** Installs the reader once per process when mysql2's own agrees with it; true when installed. */
export function installFastDateStrings(): boolean {
  if (state) return state.installed;
  const Packet = packetClass();
  if (!Packet) return false;
  const original = Packet.prototype.readDateTimeString;
  state = { Packet, original, installed: false };
  const fast = fastDateTimeReader(original);
  for (const bytes of samples()) {
    for (const type of [DATETIME, TIMESTAMP, 10]) {
      for (const sep of [null, 'T']) {
        const [textA, endA, textB, endB] = readBoth(Packet, original, fast, bytes, sep, type);
        if (textA !== textB || endA !== endB) return false;
      }
    }
  }
  Packet.prototype.readDateTimeString = fast;
  state.installed = true;
  return true;
}

/** For tests: mysql2's packet class and its own reader (null before installation was tried). */
export function mysqlDateReaders(): { Packet: PacketClass; original: DateTimeReader } | null {
  return state ? { Packet: state.Packet, original: state.original } : null;
}
