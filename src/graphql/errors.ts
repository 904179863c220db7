import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DomainError } from '../lib';
import { statusOf, wordpressCode } from '../rest/errors';
import { rememberDomainError } from './domain-errors';
import { knownOperationTypes } from './operation-types';

/**
 * A domain error as GraphQL clients get it: `extensions.code` (the domain's code), `rest_code`
 * (the contract's WordPress code, from the REST table, so both APIs name a failure alike) and,
 * for input errors, `params`. An error that says when to retry also sets `extensions.http`,
 * which Yoga applies (HTTP status and `Retry-After`) and never serialises: /graphql answers a
 * database outage with 503, throttling with 429. `located`: the GraphQL error that carried it
 * (its path and locations are kept). The result has no `originalError`, so Yoga passes it to
 * clients as is, unlogged.
 */
export function toGraphQLError(error: DomainError, located?: GraphQLError): GraphQLError {
  const { params, retryAfter } = error.data;
  const extensions: Record<string, unknown> = { code: error.code, rest_code: wordpressCode(error) };
  if (params) extensions.params = params;
  if (retryAfter !== undefined) {
    extensions.http = {
      status: statusOf(error.code),
      headers: { 'Retry-After': String(retryAfter) },
    };
  }
  const mapped = new GraphQLError(error.message, {
    nodes: located?.nodes,
    source: located?.source,
    positions: located?.positions,
    path: located?.path,
    extensions,
  });
  // graphql-jit locates errors without nodes: keep the locations it computed.
  if (mapped.locations === undefined && located?.locations !== undefined) {
    Object.assign(mapped, { locations: located.locations });
  }
  rememberDomainError(mapped, error);
  return mapped;
}

/**
 * The GraphQL edge of domain errors (`toGraphQLError`), for the errors of results and those
 * thrown while building the context (bad credentials, throttling). And every GraphQL error
 * carries an `extensions.code`: graphql-js reports some request errors without one: unusable
 * variables (`Variable "$id" got invalid value "x"; …`) become `BAD_USER_INPUT`, as domains use
 * for theirs; an operation the schema cannot run (a subscription: there are none) is refused
 * while validating, with HTTP 400 (`knownOperationTypes`); uncoded errors of a subscription's
 * result get `GRAPHQL_VALIDATION_FAILED`. The REST adapter, which maps variable errors by their message, is
 * unaffected.
 */
export function useErrorCodes(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(knownOperationTypes);
    },
    onPluginInit({ registerContextErrorHandler }) {
      // Runs before Yoga's error masking (registered after the plugins given to createYoga).
      registerContextErrorHandler(({ error, setError }) => {
        if (error instanceof DomainError) setError(toGraphQLError(error));
      });
    },
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          const coded = withCodes(result, 'BAD_USER_INPUT');
          if (coded) setResult(coded);
        },
      };
    },
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          const coded = withCodes(result, 'GRAPHQL_VALIDATION_FAILED');
          if (coded) setResult(coded);
        },
      };
    },
  };
}

/** Errors that resolvers threw as domain errors, or that lack a code. */
function needsMapping(error: GraphQLError): boolean {
  return error.originalError instanceof DomainError || error.extensions?.code === undefined;
}

/**
 * The result with its domain errors mapped and `code` on its errors that lack one; null when
 * nothing changes.
 */
function withCodes(result: unknown, code: string): ExecutionResult | null {
  if (result === null || typeof result !== 'object' || !('errors' in result)) return null;
  const { errors } = result as ExecutionResult;
  if (!errors?.some(needsMapping)) return null;
  return {
    ...(result as ExecutionResult),
    errors: errors.map((error) => {
      if (error.originalError instanceof DomainError) {
        return toGraphQLError(error.originalError, error);
      }
      if (error.extensions?.code !== undefined) return error;
      return new GraphQLError(error.message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        originalError: error.originalError,
        extensions: { ...error.extensions, code },
      });
    }),
  };
}
