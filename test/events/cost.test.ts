import { costComponents, formatCost, type StoredCost } from '../../src/events/cost';

const SITE = { symbol: '$', position: 'prefix' as const };

function stored(cost: string, extra: Partial<StoredCost> = {}): StoredCost {
  return { cost, currency_symbol: '', currency_code: '', currency_position: '', ...extra };
}

describe('formatCost', () => {
  it.each([
    ['15', '$15', ['15'], '$', 'prefix'],
    ['$15', '$15', ['15'], '$', 'prefix'],
    ['20$', '20$', ['20'], '$', 'postfix'],
    ['15€', '15€', ['15'], '€', 'postfix'],
    ['€ 15', '€15', ['15'], '€', 'prefix'],
    ['25.55', '$25.55', ['25.55'], '$', 'prefix'],
    ['0', 'Free', ['0'], '$', 'prefix'],
    ['30, 10, 20', '$10 – $30', ['10', '20', '30'], '$', 'prefix'],
    ['0$, 20$, 30$', 'Free – 30$', ['0', '20', '30'], '$', 'postfix'],
    ['10 - 20', '$10 – $20', ['10', '20'], '$', 'prefix'],
    ['Free, 20$', 'Free – 20$', ['0', '20'], '$', 'postfix'],
    ['["5€","15€"]', '5€ – 15€', ['5', '15'], '€', 'postfix'],
    ['10, 10', '$10', ['10'], '$', 'prefix'],
    // A symbol outside the Basic Multilingual Plane is one symbol, not half a surrogate pair.
    ['15💶', '15💶', ['15'], '💶', 'postfix'],
    ['💶 15', '💶15', ['15'], '💶', 'prefix'],
  ])('%s → %s', (cost, text, values, symbol, position) => {
    expect(formatCost(stored(cost), SITE)).toEqual({
      cost: text,
      cost_details: {
        currency_symbol: symbol,
        currency_code: '',
        currency_position: position,
        values,
      },
    });
  });

  it('returns text without numbers as given, its labels lowercased', () => {
    expect(formatCost(stored('Free'), SITE)).toEqual({
      cost: 'Free',
      cost_details: {
        currency_symbol: '',
        currency_code: '',
        currency_position: '',
        values: ['free'],
      },
    });
    expect(formatCost(stored('Donation'), SITE).cost_details.values).toEqual(['donation']);
  });

  it('has empty details without a cost, keeping a stored currency code', () => {
    expect(formatCost(stored('  ', { currency_code: 'EUR' }), SITE)).toEqual({
      cost: '',
      cost_details: {
        currency_symbol: '',
        currency_code: 'EUR',
        currency_position: '',
        values: [],
      },
    });
  });

  it('prefers the text, then the stored currency, then the site default', () => {
    const euro = { currency_symbol: '€', currency_position: 'postfix' };
    expect(formatCost(stored('12', euro), SITE).cost).toBe('12€');
    expect(formatCost(stored('£12', euro), SITE).cost).toBe('£12');
    expect(formatCost(stored('12'), { symbol: 'kr', position: 'postfix' }).cost).toBe('12kr');
    expect(
      formatCost(stored('12', { currency_code: 'SEK' }), SITE).cost_details.currency_code,
    ).toBe('SEK');
  });
});

describe('costComponents', () => {
  it('splits comma lists and JSON lists, dropping empty parts', () => {
    expect(costComponents('1, 2,,3 ')).toEqual(['1', '2', '3']);
    expect(costComponents('["a", "", "b"]')).toEqual(['a', 'b']);
    expect(costComponents('[not json')).toEqual(['[not json']);
    expect(costComponents('')).toEqual([]);
  });
});
