/**
 * CSV formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that begins with `=`,
 * `+`, `-` or `@` as a formula (tab and carriage return can hide such a start), so a title such
 * as `=HYPERLINK("http://evil")` would become a live link in whoever opens an export. Every CSV
 * writer puts a single quote `'` before a text cell that begins with one of those characters,
 * which spreadsheets show as text; numbers and booleans are written as they are (they cannot
 * hold a formula).
 *
 * To keep export → import lossless, a text cell that already begins with quotes followed by one
 * of those characters (`'=x`, `''-1`) gets one more quote, and the importer takes one quote off
 * every cell made of one or more quotes followed by one of those characters. For every string
 * `s`, `unescapeFormula(escapeFormula(s)) === s`.
 */

/** Quotes (any number, none included) then a trigger character. */
const NEEDS_QUOTE = /^'*[=+\-@\t\r]/;
/** What `escapeFormula` produced: at least one quote, then a trigger character. */
const QUOTED = /^'+[=+\-@\t\r]/;

/** A text cell as CSV writers put it: `'` first when a spreadsheet could read a formula. */
export function escapeFormula(text: string): string {
  return NEEDS_QUOTE.test(text) ? `'${text}` : text;
}

/** A cell as the CSV importer reads it: the quote `escapeFormula` added, taken off. */
export function unescapeFormula(cell: string): string {
  return QUOTED.test(cell) ? cell.slice(1) : cell;
}
