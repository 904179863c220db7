import { buildSchema } from '../../../src/graphql/schema';
import { coerceParam } from '../../../src/rest/coerce';
import { InvalidParamError } from '../../../src/lib/errors';
import type { GraphQLInputType } from 'graphql';

/** Conversion of REST values by GraphQL types (docs/contract.md §3). */
describe('coerceParam', () => {
  const schema = buildSchema();
  const listArg = (name: string) =>
    schema
      .getQueryType()!
      .getFields()
      .events!.args.find((a) => a.name === name)!.type;
  const termArg = (name: string) =>
    schema
      .getQueryType()!
      .getFields()
      .categories!.args.find((a) => a.name === name)!.type;
  const input = (type: string, field: string) =>
    (schema.getType(type) as any).getFields()[field].type as GraphQLInputType;
  const reason = (name: string, raw: unknown, type: GraphQLInputType) => {
    try {
      coerceParam(name, raw, type);
    } catch (err) {
      if (err instanceof InvalidParamError) return err.params[name];
      throw err;
    }
    throw new Error('expected a rejection');
  };

  it('reads integers from JSON integers and decimal strings only', () => {
    expect(coerceParam('page', '2', listArg('page'))).toBe(2);
    expect(coerceParam('page', 3, listArg('page'))).toBe(3);
    for (const bad of ['2.5', 'two', '', 2.5, true, '1e3']) {
      expect(reason('page', bad, listArg('page'))).toBe('page must be an integer.');
    }
    expect(reason('page', '99999999999', listArg('page'))).toBe('page is out of range.');
  });

  it('reads booleans: true/false/1/0 in any case and JSON booleans', () => {
    const type = listArg('featured');
    for (const yes of ['true', 'TRUE', '1', true, 1])
      expect(coerceParam('f', yes, type)).toBe(true);
    for (const no of ['false', 'False', '0', false, 0])
      expect(coerceParam('f', no, type)).toBe(false);
    for (const bad of ['yes', '', 'on', 2]) expect(reason('f', bad, type)).toMatch(/boolean/);
  });

  it('reads lists from arrays, CSV and single values; items by their type', () => {
    expect(coerceParam('venue', '1, 2 ,3', listArg('venue'))).toEqual([1, 2, 3]);
    expect(coerceParam('venue', ['4', 5], listArg('venue'))).toEqual([4, 5]);
    expect(coerceParam('venue', 6, listArg('venue'))).toEqual([6]);
    expect(coerceParam('categories', [12, 'jazz'], listArg('categories'))).toEqual(['12', 'jazz']);
    expect(coerceParam('categories', '', listArg('categories'))).toEqual([]);
    expect(reason('venue', 'x,1', listArg('venue'))).toBe('venue must be an integer.');
  });

  it('reads enums by name; order and orderby in any case', () => {
    expect(coerceParam('status', 'publish,draft', listArg('status'))).toEqual(['publish', 'draft']);
    expect(reason('status', 'Publish', listArg('status'))).toMatch(/must be one of: publish/);
    expect(coerceParam('order', 'DESC', termArg('order'))).toBe('desc');
    expect(coerceParam('orderby', 'Name', termArg('orderby'))).toBe('name');
  });

  it('keeps nulls, passes JSON through, refuses non-strings for strings', () => {
    expect(coerceParam('search', null, listArg('search'))).toBeNull();
    expect(coerceParam('cost', ['0', '20'], input('EventInput', 'cost'))).toEqual(['0', '20']);
    expect(coerceParam('title', 12, input('EventInput', 'title'))).toBe('12');
    expect(reason('title', { a: 1 }, input('EventInput', 'title'))).toBe('title must be a string.');
  });

  it('reads a venue from an id, an object, or a "none" value', () => {
    const venue = input('EventInput', 'venue');
    expect(coerceParam('venue', '12', venue)).toEqual({ id: 12 });
    expect(coerceParam('venue', [12], venue)).toEqual({ id: 12 });
    expect(coerceParam('venue', { venue: 'Hall', city: 'X', bogus: 1 }, venue)).toEqual({
      venue: 'Hall',
      city: 'X',
    });
    for (const none of [0, '0', '', [], null]) expect(coerceParam('venue', none, venue)).toBeNull();
    expect(reason('venue', [1, 2], venue)).toBe('venue takes a single value.');
    expect(reason('venue', { geo_lat: 'north' }, venue)).toBe('venue (geo_lat) must be a number.');
  });

  it('reads organizers from ids, CSV and objects', () => {
    const organizer = input('EventInput', 'organizer');
    expect(coerceParam('organizer', '3, 4', organizer)).toEqual([{ id: 3 }, { id: 4 }]);
    expect(coerceParam('organizer', [5, { organizer: 'New' }], organizer)).toEqual([
      { id: 5 },
      { organizer: 'New' },
    ]);
    expect(coerceParam('organizer', { organizer: 'One' }, organizer)).toEqual([
      { organizer: 'One' },
    ]);
    expect(coerceParam('organizer', '', organizer)).toEqual([]);
    expect(coerceParam('organizer', 0, organizer)).toEqual([]);
  });

  it('reads "" on a number field of an input as null (clears it)', () => {
    expect(coerceParam('parent', '', input('CategoryInput', 'parent'), { field: true })).toBeNull();
    expect(reason('post', '', termArg('post'))).toBe('post must be an integer.');
  });
});
