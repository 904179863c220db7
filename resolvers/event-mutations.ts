import type { IResolvers } from '@graphql-tools/utils';
import type { AppContext } from '../src/context';

export const eventMutationResolvers: IResolvers<unknown, AppContext> = {};
