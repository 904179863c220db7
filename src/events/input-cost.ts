import { invalid } from '../lib';
import type { EventRow } from '../db';
import { maxChars } from '../posts';
import { costSymbol } from './cost';
import { COST_REASON, EVENT_COST_MAX } from './rules';

/** The `cost` field of event writes: what to store, and the currency it carries. */

type CostColumns = Pick<EventRow, 'cost' | 'currency_symbol' | 'currency_position'>;

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
  const cost = maxChars('cost', texts.join(', '), EVENT_COST_MAX);
  // The same reading of symbols as rendering (src/events/cost.ts), so both agree.
  const found = texts.map(costSymbol).find((s) => s !== null);
  return {
    cost,
    currency_symbol: found?.symbol ?? '',
    currency_position: found?.position ?? '',
  };
}
