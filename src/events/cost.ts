/**
 * Cost parsing and formatting (docs/contract.md §4, Event: `cost`, `cost_details`).
 *
 * The stored cost is the text the client sent: one string (`15`, `$15`, `20$`, `Free`,
 * `10 - 20`) or a list, stored either as a JSON array of strings or as comma-separated text.
 * Commas therefore always separate values; a dot is the decimal separator.
 */

export interface CostDetails {
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  values: string[];
}

export interface FormattedCost {
  cost: string;
  cost_details: CostDetails;
}

/** What an event row stores about its cost. */
export interface StoredCost {
  cost: string;
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
}

/** Site defaults, used when neither the cost text nor the event carries a symbol. */
export interface CostDefaults {
  symbol: string;
  position: 'prefix' | 'postfix';
}

type Position = 'prefix' | 'postfix';

interface Amount {
  value: number;
  /** As written (`15.50` stays `15.50`). */
  text: string;
}

interface ParsedPart {
  amounts: Amount[];
  symbol: string | null;
  position: Position | null;
}

const NUMBER = /\d+(?:\.\d+)?/g;
// A currency marker is short and holds no digits or spaces: `$`, `€`, `USD`, `kr.`.
const SYMBOL = /^[^\d\s]{1,4}$/u;
const FREE = /^free$/i;

/** The empty details of a cost-less (or redacted) event. */
export function emptyCostDetails(currencyCode = ''): CostDetails {
  return { currency_symbol: '', currency_code: currencyCode, currency_position: '', values: [] };
}

/** Splits the stored text into its components: a JSON list, or comma-separated text. */
export function costComponents(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) {
        return parsed.map((v) => String(v ?? '').trim()).filter((v) => v !== '');
      }
    } catch {
      // Not JSON: fall through to plain text.
    }
  }
  return trimmed
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57; // what /\d/ matches
}

function parsePart(part: string): ParsedPart {
  // In a list, "Free" is the zero of the range ("Free – 30$").
  if (FREE.test(part)) return { amounts: [{ value: 0, text: '0' }], symbol: null, position: null };
  let first = 0;
  while (first < part.length && !isDigit(part.charCodeAt(first))) first++;
  if (first === part.length) return { amounts: [], symbol: null, position: null };
  let last = part.length - 1;
  while (!isDigit(part.charCodeAt(last))) last--;
  const texts = part.match(NUMBER)!;
  const amounts = texts.map((text) => ({ value: Number(text), text }));
  const before = part.slice(0, first).trim();
  const after = part.slice(last + 1).trim();
  if (SYMBOL.test(before)) return { amounts, symbol: before, position: 'prefix' };
  if (SYMBOL.test(after)) return { amounts, symbol: after, position: 'postfix' };
  return { amounts, symbol: null, position: null };
}

/** The currency symbol and position one cost component carries (`$15` → `$`, prefix), if any. */
export function costSymbol(part: string): { symbol: string; position: Position } | null {
  const { symbol, position } = parsePart(part);
  return symbol && position ? { symbol, position } : null;
}

function withSymbol(amount: Amount, symbol: string, position: Position): string {
  // The reference prints a zero as "Free" wherever it formats a cost.
  if (amount.value === 0) return 'Free';
  return position === 'prefix' ? `${symbol}${amount.text}` : `${amount.text}${symbol}`;
}

/** Ascending by value, one entry per value. */
function sortedAmounts(parts: ParsedPart[]): Amount[] {
  // Most costs are one amount ("$15", "Free").
  if (parts.length === 1 && parts[0]!.amounts.length <= 1) return parts[0]!.amounts;
  const byValue = new Map<number, Amount>();
  for (const part of parts) {
    for (const a of part.amounts) if (!byValue.has(a.value)) byValue.set(a.value, a);
  }
  return [...byValue.values()].sort((a, b) => a.value - b.value);
}

/**
 * Formats a stored cost. Symbol and position come from the cost text when it carries one,
 * else from the event's stored currency, else from the site defaults.
 */
export function formatCost(stored: StoredCost, defaults: CostDefaults): FormattedCost {
  const components = costComponents(stored.cost);
  if (components.length === 0) {
    return { cost: '', cost_details: emptyCostDetails(stored.currency_code) };
  }
  const parts = components.map(parsePart);
  const amounts = sortedAmounts(parts);
  // Only labels ("Free", "Donation"): shown as given, the labels lowercased as values.
  if (amounts.length === 0 || components.every((c) => FREE.test(c))) {
    return {
      cost: stored.cost.trim(),
      cost_details: {
        ...emptyCostDetails(stored.currency_code),
        values: components.map((c) => c.toLowerCase()),
      },
    };
  }
  const fromText = parts.find((p) => p.symbol !== null);
  const storedPosition = stored.currency_position === 'postfix' ? 'postfix' : 'prefix';
  const symbol = fromText?.symbol ?? (stored.currency_symbol || defaults.symbol);
  const position: Position =
    fromText?.position ?? (stored.currency_symbol ? storedPosition : defaults.position);
  const low = amounts[0] as Amount;
  const high = amounts[amounts.length - 1] as Amount;
  const cost =
    low === high
      ? withSymbol(low, symbol, position)
      : `${withSymbol(low, symbol, position)} – ${withSymbol(high, symbol, position)}`;
  return {
    cost,
    cost_details: {
      currency_symbol: symbol,
      currency_code: stored.currency_code,
      currency_position: position,
      values: amounts.map((a) => a.text),
    },
  };
}
