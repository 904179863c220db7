import type { IResolvers } from '@graphql-tools/utils';
import { baseResolvers } from './base';
import { connectionResolvers } from './connections';
import { eventResolvers } from './event';
import { eventMutationResolvers } from './event-mutations';
import { organizerResolvers } from './organizer';
import { termResolvers } from './term';
import { venueResolvers } from './venue';

/** Every resolver map; makeExecutableSchema merges them. */
export const resolvers: IResolvers[] = [
  baseResolvers,
  eventResolvers,
  eventMutationResolvers,
  venueResolvers,
  organizerResolvers,
  termResolvers,
  connectionResolvers,
];
