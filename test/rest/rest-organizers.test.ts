import { describeEachDb } from '../support/harness';
import { linkedPostSuite } from '../support/rest/rest-linked-suite';

/** GET/POST /organizers, /organizers/<id>, /organizers/by-slug/<slug> (docs/contract.md §1–§8). */
describeEachDb('REST organizers', (env) =>
  linkedPostSuite(env, {
    kind: 'organizer',
    collection: 'organizers',
    full: {
      organizer: 'Acme Org',
      phone: '555-9876',
      website: 'https://acme.example.com',
      email: 'org@example.com',
    },
    absent: 'excerpt',
    invalid: [
      [{ website: 'foo' }, 'website'],
      [{ author: 'someone' }, 'author'],
      [{ status: 'kinda' }, 'status'],
      [{ email: ['a', 'b'] }, 'email'],
    ],
  }),
);
