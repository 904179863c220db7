import { findLiveIdsByNames } from '../../src/places';
import { describeEachDb } from '../support/harness';

/**
 * One de-duplication rule for venues and organizers, the same on SQLite and MySQL whatever the
 * MySQL collation: names match ignoring case, Unicode included ("élysée" is "Élysée"), while
 * accents count ("Elysee" is another venue) and a given description must match exactly. Name
 * searches fold case the same way.
 */

describeEachDb('Unicode name matching', (env) => {
  const admin = { as: 'administrator' as const };
  const createVenue = async (input: Record<string, unknown>) =>
    (
      await env.ok(
        'mutation($input: VenueInput!) { create_venue(input: $input) { id venue } }',
        { input },
        admin,
      )
    ).create_venue as { id: number; venue: string };
  const createOrganizer = async (input: Record<string, unknown>) =>
    (
      await env.ok(
        'mutation($input: OrganizerInput!) { create_organizer(input: $input) { id organizer } }',
        { input },
        admin,
      )
    ).create_organizer as { id: number; organizer: string };

  it('reuses a venue whose name differs by case only, any script', async () => {
    const elysee = await createVenue({ venue: 'Élysée Montmartre' });
    for (const name of ['élysée montmartre', 'ÉLYSÉE MONTMARTRE', 'Élysée Montmartre']) {
      expect({ name, id: (await createVenue({ venue: name })).id }).toEqual({
        name,
        id: elysee.id,
      });
    }
    const greek = await createVenue({ venue: 'Θέατρο Ήρωδου' });
    expect((await createVenue({ venue: 'θέατρο ήρωδου' })).id).toBe(greek.id);
    const cyrillic = await createVenue({ venue: 'Дом Музыки' });
    expect((await createVenue({ venue: 'ДОМ МУЗЫКИ' })).id).toBe(cyrillic.id);
    // Inline in an event write, REST and GraphQL alike.
    const event = await env.ok(
      `mutation($input: EventInput!) { create_event(input: $input) { venue { id } } }`,
      {
        input: {
          title: 'At the Élysée',
          start_date: '2027-02-01 20:00:00',
          end_date: '2027-02-01 23:00:00',
          venue: { venue: 'élysée montmartre' },
        },
      },
      admin,
    );
    expect(event.create_event.venue.id).toBe(elysee.id);
  });

  it('keeps names that differ by more than case apart, on both databases', async () => {
    const cafe = await createVenue({ venue: 'Café Lumière' });
    const plain = await createVenue({ venue: 'Cafe Lumiere' });
    expect(plain.id).not.toBe(cafe.id);
    expect((await createVenue({ venue: 'CAFE LUMIERE' })).id).toBe(plain.id);
    expect((await createVenue({ venue: 'café lumière' })).id).toBe(cafe.id);
    // A given description must match exactly: case and accents count there too.
    const described = await createVenue({ venue: 'Salle Pleyel', description: 'Grande salle' });
    expect((await createVenue({ venue: 'SALLE PLEYEL', description: 'Grande salle' })).id).toBe(
      described.id,
    );
    expect((await createVenue({ venue: 'Salle Pleyel', description: 'grande salle' })).id).not.toBe(
      described.id,
    );
    expect((await createVenue({ venue: 'Salle Pleyel', description: 'Grande sallé' })).id).not.toBe(
      described.id,
    );
  });

  it('de-duplicates organizers, and the import lookup, by the same rule', async () => {
    const org = await createOrganizer({ organizer: 'Über Events' });
    expect((await createOrganizer({ organizer: 'über events' })).id).toBe(org.id);
    expect((await createOrganizer({ organizer: 'Uber Events' })).id).not.toBe(org.id);
    const ids = await findLiveIdsByNames(env.db, 'organizers', ['ÜBER EVENTS', 'nobody']);
    expect(ids.get('über events')).toBe(org.id);
    expect(ids.has('nobody')).toBe(false);
    const venue = await createVenue({ venue: 'Øresund Hall' });
    const venues = await findLiveIdsByNames(env.db, 'venues', ['øresund hall']);
    expect(venues.get('øresund hall')).toBe(venue.id);
  });

  it('finds venues and organizers by name whatever the case of non-ASCII letters', async () => {
    await createVenue({ venue: 'Ünique Arena' });
    await createOrganizer({ organizer: 'Ñandú Productions' });
    const venues = await env.ok('query($s: String) { venues(search: $s) { venues { venue } } }', {
      s: 'ünique',
    });
    expect(venues.venues.venues.map((v: { venue: string }) => v.venue)).toEqual(['Ünique Arena']);
    const organizers = await env.ok(
      'query($s: String) { organizers(search: $s) { organizers { organizer } } }',
      { s: 'ÑANDÚ' },
    );
    expect(organizers.organizers.organizers.map((o: { organizer: string }) => o.organizer)).toEqual(
      ['Ñandú Productions'],
    );
  });
});
