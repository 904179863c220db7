import { describeEachDb } from '../support/harness';
import { linkedPostSuite } from '../support/rest/rest-linked-suite';

/** GET/POST /venues, /venues/<id>, /venues/by-slug/<slug> (docs/contract.md §1–§8). */
describeEachDb('REST venues', (env) =>
  linkedPostSuite(env, {
    kind: 'venue',
    collection: 'venues',
    full: {
      venue: 'Main Hall',
      address: '1 Main St',
      city: 'Springfield',
      country: 'United States',
      state: 'IL',
      zip: '62701',
      phone: '555-1234',
      website: 'https://venue.example.com',
      stateprovince: 'IL',
      show_map: true,
      show_map_link: false,
    },
    absent: 'province',
    invalid: [
      [{ website: 'foo' }, 'website'],
      [{ show_map: 'perhaps' }, 'show_map'],
      [{ geo_lat: 'north' }, 'geo_lat'],
      [{ status: 'kinda' }, 'status'],
    ],
  }),
);
