import type { IResolvers } from '@graphql-tools/utils';
import { baseResolvers } from './base';
import { connectionResolvers } from './connections';
import { countResolvers } from './counts';
import { eventResolvers } from './event';
import { eventMutationResolvers } from './event-mutations';
import { nodeResolvers } from './node';
import { organizerResolvers } from './organizer';
import { termResolvers } from './term';
import { timeResolvers } from './time';
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
  timeResolvers,
  nodeResolvers,
  countResolvers,
];
