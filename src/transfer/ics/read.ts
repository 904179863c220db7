import fs from 'node:fs';
import readline from 'node:readline';

/**
 * Reads an iCalendar file a component at a time, without holding the file: physical lines are
 * unfolded (RFC 5545 §3.1), and each top-level VEVENT or VTIMEZONE inside the VCALENDAR comes
 * out as its own text with the line it starts on. Memory holds one component at a time.
 */

export interface IcsBlock {
  kind: 'VEVENT' | 'VTIMEZONE';
  /** 1-based line of its BEGIN. */
  line: number;
  text: string;
}

/** Problems of the file's structure (an unterminated component, no VCALENDAR). */
export interface IcsStructureProblem {
  line: number;
  reason: string;
}

async function* logicalLines(
  file: string,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<{ line: number; text: string }> {
  const input = fs.createReadStream(file);
  if (onBytes) {
    let bytes = 0;
    input.on('data', (chunk) => onBytes((bytes += chunk.length)));
  }
  input.setEncoding('utf8');
  const reader = readline.createInterface({ input, crlfDelay: Infinity });
  let pending: { line: number; text: string } | null = null;
  let n = 0;
  for await (const raw of reader) {
    n += 1;
    const physical = n === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if ((physical.startsWith(' ') || physical.startsWith('\t')) && pending) {
      pending.text += physical.slice(1);
      continue;
    }
    if (pending) yield pending;
    pending = physical === '' ? null : { line: n, text: physical };
  }
  if (pending) yield pending;
}

/**
 * The VEVENT and VTIMEZONE blocks of a file (`kinds` chooses), in file order. Structure
 * problems go to `onProblem`; the blocks around them still come out.
 */
export async function* icsBlocks(
  file: string,
  kinds: ReadonlySet<IcsBlock['kind']>,
  onProblem: (problem: IcsStructureProblem) => void = () => undefined,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<IcsBlock> {
  let current: { kind: IcsBlock['kind']; line: number; lines: string[]; depth: number } | null =
    null;
  let sawCalendar = false;
  for await (const { line, text } of logicalLines(file, onBytes)) {
    const upper = text.toUpperCase();
    const begin = upper.startsWith('BEGIN:') ? upper.slice(6).trim() : null;
    const end = upper.startsWith('END:') ? upper.slice(4).trim() : null;
    if (!current) {
      if (begin === 'VCALENDAR') sawCalendar = true;
      if (begin === 'VEVENT' || begin === 'VTIMEZONE') {
        current = { kind: begin, line, lines: [text], depth: 1 };
      }
      continue;
    }
    if (current.kind === 'VEVENT' && begin === 'VEVENT') {
      onProblem({ line: current.line, reason: 'VEVENT without END:VEVENT' });
      current = { kind: 'VEVENT', line, lines: [text], depth: 1 };
      continue;
    }
    current.lines.push(text);
    if (begin) current.depth += 1;
    if (end) current.depth -= 1;
    if (current.depth === 0) {
      if (kinds.has(current.kind)) {
        yield { kind: current.kind, line: current.line, text: `${current.lines.join('\r\n')}\r\n` };
      }
      current = null;
    }
  }
  if (current) onProblem({ line: current.line, reason: `${current.kind} without END` });
  if (!sawCalendar) onProblem({ line: 1, reason: 'no BEGIN:VCALENDAR: not an iCalendar file' });
}
