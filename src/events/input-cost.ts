import { invalid } from '../lib/errors';
import { costSymbol } from './cost';
import type { EventRow } from '../db/rows';

/** The `cost` field of event writes: what to store, and the currency it carries. */

type CostColumns = Pick<EventRow, 'cost' | 'currency_symbol' | 'currency_position'>;

const COST_REASON = 'must be a string, a number, or a list of strings and numbers';

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
  // The same reading of symbols as rendering (src/events/cost.ts), so both agree.
  const found = texts.map(costSymbol).find((s) => s !== null);
  return {
    cost,
    currency_symbol: found?.symbol ?? '',
    currency_position: found?.position ?? '',
  };
}
