import fs from 'node:fs';
import path from 'node:path';
import { GraphQLError } from 'graphql';
import { domainErrorOf } from '../../src/graphql/domain-errors';
import { toGraphQLError } from '../../src/graphql/errors';
import { tooManyRequests } from '../../src/http/auth-throttle';
import { requestTimeout } from '../../src/http/timeout';
import {
  DomainError,
  MissingParamError,
  badCredentials,
  forbidden,
  inTrash,
  invalid,
  noLongerAvailable,
  notAccessible,
  notFound,
  pageNotFound,
  passwordProtected,
  serviceUnavailable,
  unauthenticated,
  unexpectedError,
} from '../../src/lib/errors';
import { fromGraphQLError, fromThrown } from '../../src/rest/errors';
import { invalidJson, tooLarge } from '../../src/rest/params';

/** Domain errors know no transport; each transport maps them at its edge (issue 14, item 3). */

describe('domain errors', () => {
  it('are plain errors, not GraphQL errors, with a code, a reason and a resource', () => {
    const error = notFound('event', 5);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(GraphQLError);
    expect(error).not.toHaveProperty('extensions');
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      reason: 'not_found',
      resource: 'event',
      message: 'Event with ID 5 does not exist.',
    });
    expect(invalid('title', 'is empty').data).toEqual({ params: { title: 'is empty' } });
  });

  it('know nothing of GraphQL in any domain folder', () => {
    const src = path.join(__dirname, '../../src');
    const rooms = ['lib', 'db', 'users', 'posts', 'places', 'terms', 'events', 'transfer'];
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.ts$/.test(entry.name) && /\bGraphQLError\b/.test(fs.readFileSync(file, 'utf8')))
          offenders.push(path.relative(src, file));
      }
    };
    for (const room of [...rooms, 'context', 'config']) walk(path.join(src, room));
    expect(offenders).toEqual([]);
  });
});

describe('the REST mapping (status and WordPress code)', () => {
  it.each<[string, DomainError, number, string]>([
    ['notFound by id', notFound('event', 5), 404, 'rest-event-not-found'],
    ['notFound by slug', notFound('venue', 'hall'), 404, 'rest-venue-not-found'],
    ['notFound of a term', notFound('category', 3), 404, 'rest-category-not-found'],
    ['notAccessible', notAccessible('organizer'), 403, 'organizer-not-accessible'],
    ['noLongerAvailable', noLongerAvailable('event'), 403, 'event-no-longer-available'],
    ['passwordProtected', passwordProtected('event'), 403, 'event-password-protected'],
    ['inTrash', inTrash('venue'), 410, 'venue-is-in-trash'],
    ['pageNotFound', pageNotFound('tag'), 404, 'tag-archive-page-not-found'],
    ['invalid', invalid('per_page', 'must be a positive integer'), 400, 'rest_invalid_param'],
    ['missing', new MissingParamError(['title']), 400, 'rest_missing_callback_param'],
    ['unauthenticated', unauthenticated(), 401, 'rest_forbidden'],
    ['badCredentials', badCredentials(), 401, 'rest_forbidden'],
    ['forbidden', forbidden(), 403, 'rest_forbidden'],
    ['serviceUnavailable', serviceUnavailable(), 503, 'rest_service_unavailable'],
    ['unexpectedError', unexpectedError('Unexpected error.'), 500, 'rest_internal_error'],
    ['tooLarge', tooLarge(10), 413, 'rest_request_too_large'],
    ['invalidJson', invalidJson('oops'), 400, 'rest_invalid_json'],
    ['tooManyRequests', tooManyRequests(7), 429, 'rest_too_many_requests'],
    ['requestTimeout', requestTimeout(5), 503, 'rest_request_timeout'],
  ])('%s', (_label, error, status, code) => {
    const mapped = fromThrown(error);
    expect(mapped).toEqual({
      status,
      body: { code, message: error.message, data: expect.objectContaining({ status }) },
    });
  });

  it('carries the parameters of input errors (and the empty `details` of invalid ones)', () => {
    expect(fromThrown(invalid('title', 'is empty'))!.body.data).toEqual({
      status: 400,
      params: { title: 'is empty' },
      details: [],
    });
    expect(fromThrown(new MissingParamError(['start_date', 'end_date']))!.body.data).toEqual({
      status: 400,
      params: ['start_date', 'end_date'],
    });
  });

  it('finds the domain error inside GraphQL errors, thrown or mapped', () => {
    const error = notFound('event', 5);
    const located = new GraphQLError(error.message, { path: ['event'], originalError: error });
    expect(domainErrorOf(located)).toBe(error);
    expect(fromGraphQLError(located)?.body.code).toBe('rest-event-not-found');
    const mapped = toGraphQLError(error, located);
    expect(mapped.originalError).toBeUndefined();
    expect(domainErrorOf(mapped)).toBe(error);
    expect(fromThrown(mapped)?.status).toBe(404);
    expect(fromThrown(new Error('bug'))).toBeNull();
  });
});

describe('the GraphQL mapping (extensions)', () => {
  it('gives the code, the REST code and the parameters', () => {
    const error = notFound('event', 5);
    const mapped = toGraphQLError(error, new GraphQLError('x', { path: ['event'] }));
    expect(mapped).toBeInstanceOf(GraphQLError);
    expect(mapped.toJSON()).toEqual({
      message: 'Event with ID 5 does not exist.',
      path: ['event'],
      extensions: { code: 'NOT_FOUND', rest_code: 'rest-event-not-found' },
    });
    expect(toGraphQLError(invalid('per_page', 'bad')).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      rest_code: 'rest_invalid_param',
      params: { per_page: 'bad' },
    });
  });

  it('sets the HTTP status and Retry-After of errors that say when to retry', () => {
    expect(toGraphQLError(serviceUnavailable()).extensions).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      rest_code: 'rest_service_unavailable',
      http: { status: 503, headers: { 'Retry-After': '1' } },
    });
    expect(toGraphQLError(tooManyRequests(7)).extensions.http).toEqual({
      status: 429,
      headers: { 'Retry-After': '7' },
    });
    expect(toGraphQLError(forbidden()).extensions).not.toHaveProperty('http');
  });
});
