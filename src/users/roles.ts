/** Roles and what each may do (docs/contract.md §9). */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export interface Capabilities {
  /** Create events, venues, organizers; see non-published records. */
  createPosts: boolean;
  /** Publish (otherwise publish/future scale back to pending). */
  publish: boolean;
  /** Edit and delete records of other authors. */
  editOthers: boolean;
  /** Edit and delete own published records. */
  editOwnPublished: boolean;
  /** Create, update and delete categories and tags. */
  manageTerms: boolean;
}

const NONE: Capabilities = {
  createPosts: false,
  publish: false,
  editOthers: false,
  editOwnPublished: false,
  manageTerms: false,
};

export const CAPABILITIES: Record<Role, Capabilities> = {
  administrator: {
    createPosts: true,
    publish: true,
    editOthers: true,
    editOwnPublished: true,
    manageTerms: true,
  },
  editor: {
    createPosts: true,
    publish: true,
    editOthers: true,
    editOwnPublished: true,
    manageTerms: true,
  },
  author: { ...NONE, createPosts: true, publish: true, editOwnPublished: true },
  contributor: { ...NONE, createPosts: true },
  subscriber: NONE,
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
