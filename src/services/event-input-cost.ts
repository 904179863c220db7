import { invalid } from '../errors';
import type { EventRow } from '../repositories/rows';

/** The `cost` field of event writes: what to store, and the currency it carries. */

type CostColumns = Pick<EventRow, 'cost' | 'currency_symbol' | 'currency_position'>;

const COST_REASON = 'must be a string, a number, or a list of strings and numbers';
// A currency marker is short and holds no digits or spaces (`$`, `€`, `kr.`), as src/lib/cost.ts
// reads it when rendering, so the stored symbol agrees with the formatted cost.
const SYMBOL = /^[^\d\s]{1,4}$/u;

function symbolOf(text: string): Pick<CostColumns, 'currency_symbol' | 'currency_position'> | null {
  const first = text.search(/\d/);
  if (first < 0) return null;
  const last = text.search(/\d\D*$/);
  const before = text.slice(0, first).trim();
  const after = text.slice(last + 1).trim();
  if (SYMBOL.test(before)) return { currency_symbol: before, currency_position: 'prefix' };
  if (SYMBOL.test(after)) return { currency_symbol: after, currency_position: 'postfix' };
  return null;
}

/**
 * `cost`: stored as text (lists joined with ", "); the currency symbol and its position are
 * taken from the first part that carries one (`$15` prefix, `20$`/`15€` postfix), else empty.
 */
export function parseCost(value: unknown): CostColumns {
  if (value === null || value === undefined)
    return { cost: '', currency_symbol: '', currency_position: '' };
  const items = Array.isArray(value) ? value : [value];
  const parts = items.map((item) => {
    if (typeof item === 'number' && Number.isFinite(item)) return String(item);
    if (typeof item === 'string') return item.trim();
    throw invalid('cost', COST_REASON);
  });
  const texts = parts.filter((t) => t !== '');
  const cost = texts.join(', ');
  if (Array.from(cost).length > 1000) throw invalid('cost', 'must be at most 1000 characters');
  const symbol = texts.map(symbolOf).find((found) => found !== null);
  return { cost, ...(symbol ?? { currency_symbol: '', currency_position: '' }) };
}
