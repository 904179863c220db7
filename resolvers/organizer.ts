import type { IResolvers } from '@graphql-tools/utils';
import type { AppContext } from '../src/context';

export const organizerResolvers: IResolvers<unknown, AppContext> = {};
