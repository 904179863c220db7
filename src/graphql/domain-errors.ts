import type { GraphQLError } from 'graphql';
import { DomainError } from '../lib';

/**
 * Which domain error a GraphQL error stands for. Results of Yoga's pipeline carry domain errors
 * mapped to GraphQL (`toGraphQLError`, without `originalError`, so that Yoga passes them on as
 * client errors); the REST adapter reads them back here (a context error, say).
 */

const mappedFrom = new WeakMap<GraphQLError, DomainError>();

/** Records that `mapped` was made from `error`. */
export function rememberDomainError(mapped: GraphQLError, error: DomainError): void {
  mappedFrom.set(mapped, error);
}

/**
 * The domain error behind a thrown value or a GraphQL error: itself, the `originalError` of a
 * GraphQL error (thrown by a resolver, in results of direct execution), or the one a GraphQL
 * error was mapped from; else null.
 */
export function domainErrorOf(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (error === null || typeof error !== 'object') return null;
  const { originalError } = error as { originalError?: unknown };
  if (originalError instanceof DomainError) return originalError;
  return mappedFrom.get(error as GraphQLError) ?? null;
}
