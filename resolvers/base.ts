import { GraphQLJSON } from 'graphql-scalars';
import type { Resolvers } from '../src/graphql/generated/resolvers-types';

export const baseResolvers: Resolvers = {
  JSON: GraphQLJSON,
  Query: {
    viewer: (_root, _args, ctx) =>
      ctx.viewer.user
        ? {
            id: ctx.viewer.user.id,
            login: ctx.viewer.user.login,
            display_name: ctx.viewer.user.login,
            role: ctx.viewer.user.role,
          }
        : null,
  },
  Mutation: {
    ping: () => true,
  },
};
