/**
 * The hand-written part of `GET /doc`: how the REST presenters (`present.ts`) bend GraphQL
 * results on the wire, the component list the contract names, and the two schemas without a
 * GraphQL type (image sizes, the error envelope). `schemas.ts` applies them to the
 * GraphQL types; `rest-doc.test.ts` checks real responses against the result.
 */

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** A `$ref` with a description beside it (OpenAPI 3.0 ignores siblings of `$ref`). */
export function described(schema: Schema, description: string | null | undefined): Schema {
  if (!description) return schema;
  return '$ref' in schema ? { description, allOf: [schema] } : { description, ...schema };
}

/** How a presenter treats the fields of one GraphQL type (`present.ts`). */
export interface WireRules {
  /** Null values are omitted rather than sent as null (`image`, list links, term urls). */
  dropNull?: boolean;
  /**
   * Empty values (`""`, `"0"`, `false`, null) are omitted, except these keys (venues and
   * organizers).
   */
  dropEmptyExcept?: readonly string[];
  /** Fields sent only by some routes (nullable in GraphQL, omitted when null). */
  optional?: readonly string[];
  /** What the presenter sends instead of the GraphQL value. */
  fields?: Record<string, Schema>;
  /** The type has several wire shapes (terms): no key is always present. */
  partial?: boolean;
}

/**
 * The component schemas the contract names (docs/contract.md §11), in its order, and their sources.
 */
export const COMPONENTS: readonly {
  name: string;
  /** GraphQL object types whose fields it has (`null`: declared below). */
  from: string[] | null;
  rules?: WireRules;
  /** Description when it is not the GraphQL type's. */
  description?: string;
}[] = [
  { name: 'ImageSize', from: null },
  { name: 'CostDetails', from: ['CostDetails'] },
  {
    name: 'Term',
    // `/categories` and `/tags` send one shape, events embed WordPress's raw term shape.
    from: ['Category', 'Tag'],
    rules: { partial: true },
    description:
      'A category or a tag. `/categories` and `/tags` send id, count, description, name, slug, ' +
      'taxonomy, parent (categories only), meta, url and urls; terms inside events send name, ' +
      'slug, term_group, term_taxonomy_id, taxonomy, description, parent, count, filter, id ' +
      'and urls.',
  },
  {
    name: 'Image',
    from: ['Image'],
    rules: {
      dropNull: true,
      fields: {
        sizes: {
          type: 'object',
          description: 'Generated sizes keyed by size name, when known.',
          additionalProperties: ref('ImageSize'),
        },
      },
    },
  },
  { name: 'DateDetails', from: ['DateDetails'] },
  {
    name: 'Event',
    from: ['Event'],
    rules: {
      optional: ['json_ld'],
      fields: {
        image: {
          description: 'Featured image, or `false` when there is none.',
          oneOf: [ref('Image'), { type: 'boolean', enum: [false] }],
        },
        venue: {
          description: 'The venue, or an empty array when there is none.',
          oneOf: [ref('Venue'), { type: 'array', items: {}, maxItems: 0 }],
        },
      },
    },
  },
  {
    name: 'Venue',
    from: ['Venue'],
    rules: { dropEmptyExcept: ['show_map', 'show_map_link', 'global_id', 'global_id_lineage'] },
  },
  {
    name: 'Organizer',
    from: ['Organizer'],
    rules: { dropEmptyExcept: ['show_map', 'show_map_link', 'global_id', 'global_id_lineage'] },
  },
];

/** GraphQL object types shown through a component schema. */
export const COMPONENT_OF: Record<string, string> = {
  Image: 'Image',
  DateDetails: 'DateDetails',
  CostDetails: 'CostDetails',
  Event: 'Event',
  Venue: 'Venue',
  Organizer: 'Organizer',
  Category: 'Term',
  Tag: 'Term',
};

/** Types whose nulls the presenters drop, beyond the components (`urls.up`, list links). */
export const DROP_NULL_TYPES = new Set([
  'TermUrls',
  'EventList',
  'VenueList',
  'OrganizerList',
  'CategoryList',
  'TagList',
]);

/** Image sizes have no GraphQL type (`Image.sizes` is JSON); the reference's size object. */
export const IMAGE_SIZE: Schema = {
  type: 'object',
  description:
    'One generated size of an image. This service stores no generated sizes, so `sizes` is ' +
    'absent from its images; the shape is kept for clients of the reference.',
  properties: {
    width: { type: 'integer', description: 'Width in pixels of this size.' },
    height: { type: 'integer', description: 'Height in pixels of this size.' },
    'mime-type': { type: 'string', description: 'MIME type of this size.' },
    url: { type: 'string', description: 'URL of this size.' },
  },
};

/** The error envelope of every failure (docs/contract.md §8). */
export const ERROR_SCHEMA: Schema = {
  type: 'object',
  description: 'Every error: a stable code, a sentence, and the HTTP status in `data`.',
  required: ['code', 'message', 'data'],
  properties: {
    code: {
      type: 'string',
      description: 'Stable error code, e.g. `rest_invalid_param`, `rest-event-not-found`.',
    },
    message: { type: 'string', description: 'What went wrong, in one sentence.' },
    data: {
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'integer', description: 'The HTTP status of the response.' },
        params: {
          description:
            'Invalid parameters (name → reason) for `rest_invalid_param`, names of the missing ' +
            'ones for `rest_missing_callback_param`.',
          oneOf: [
            { type: 'object', additionalProperties: { type: 'string' } },
            { type: 'array', items: { type: 'string' } },
          ],
        },
        details: {
          type: 'array',
          items: {},
          description: 'Always empty; sent with `rest_invalid_param` like the reference.',
        },
      },
    },
  },
};
