import type { IResolvers } from '@graphql-tools/utils';
import { GraphQLJSON } from 'graphql-scalars';
import type { AppContext } from '../src/context';

export const baseResolvers: IResolvers<unknown, AppContext> = {
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
