import fc from 'fast-check';
import { sanitizeRichText } from '../../src/lib/html';
import { renderDescription, renderExcerpt, renderTitle } from '../../src/posts/render';
import { describeEachDb } from '../support/harness';
import { RestClient } from '../support/rest/rest-client';

/**
 * Rendering on output (docs/contract.md §4) end to end, on both databases: what a client sends
 * is stored exactly (descriptions and excerpts through the HTML allowlist) and read back as is
 * through GraphQL's raw fields; REST bodies, the SOFA view and JSON-LD show it rendered.
 */

const admin = { as: 'administrator' as const };
const DATES = { start_date: '2027-06-01 19:00:00', end_date: '2027-06-01 22:00:00' };

const WORDS = ['Jazz', 'night', 'café', 'Привет', 'мир', '東京', 'タワー', 'مرحبا', '😀', '🎷'];
const MARKS = [`'`, '"', '-', '--', '...', '&', '&amp;', '(tm)', '9x12', `'90s`, '–', '“x”'];
const token = fc.constantFrom(...WORDS, ...MARKS);
/** A title: words and typography, never starting or ending with a space (titles are trimmed). */
const title = fc
  .array(token, { minLength: 1, maxLength: 7 })
  .map((t) => `${t.join(' ')} ${WORDS[t.length % WORDS.length]}`.trim());
const line = fc.array(token, { minLength: 1, maxLength: 9 }).map((t) => t.join(' '));
const inline = fc
  .tuple(fc.constantFrom('strong', 'em', 'code'), line)
  .map(([tag, text]) => `<${tag}>${text}</${tag}>`);
const paragraph = fc
  .array(fc.oneof(line, inline), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(' '));
/** Several paragraphs, some with single line breaks, some already in `<p>`, a heading. */
const html = fc
  .array(
    fc.oneof(
      paragraph,
      fc.array(paragraph, { minLength: 2, maxLength: 3 }).map((p) => p.join('\n')),
      paragraph.map((p) => `<p>${p}</p>`),
      line.map((l) => `<h1>${l}</h1>`),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((blocks) => blocks.join('\n\n'));

const RAW = `query($id: Int!) {
  event(id: $id) {
    title description excerpt title_rendered description_rendered excerpt_rendered
    venue { venue description venue_rendered description_rendered }
    organizer { organizer description organizer_rendered description_rendered }
  }
}`;

describeEachDb('rendering on output', (env) => {
  const rest = new RestClient(env);
  let run = 0;

  async function raw(id: number): Promise<Record<string, any>> {
    return (await env.ok(RAW, { id }, admin)).event;
  }

  it('stores what was sent, reads it back raw, renders it in REST, and keeps it through updates', async () => {
    await fc.assert(
      fc.asyncProperty(title, html, html, title, html, html, async (t, d, e, name, vd, od) => {
        run++;
        const created = await rest.post(
          '/events',
          {
            title: t,
            description: d,
            excerpt: e,
            ...DATES,
            venue: { venue: `${name} ${run}`, description: vd },
            organizer: [{ organizer: `${name} ${run}`, description: od }],
          },
          admin,
        );
        expect(created.status).toBe(201);
        const stored = await raw(created.body.id);
        // Stored exactly as sent (HTML through the allowlist only).
        expect(stored).toMatchObject({
          title: t,
          description: sanitizeRichText(d),
          excerpt: sanitizeRichText(e),
          venue: { venue: `${name} ${run}`, description: sanitizeRichText(vd) },
          organizer: [{ organizer: `${name} ${run}`, description: sanitizeRichText(od) }],
        });
        // REST and GraphQL's rendered fields: WordPress's filters over the stored text.
        const body = created.body;
        expect(body.title).toBe(renderTitle(stored.title));
        expect(body.description).toBe(renderDescription(stored.description));
        expect(body.excerpt).toBe(renderExcerpt(stored.excerpt));
        expect(body.venue.venue).toBe(renderTitle(stored.venue.venue));
        expect(body.venue.description).toBe(renderDescription(stored.venue.description));
        expect(body.organizer[0].organizer).toBe(renderTitle(stored.organizer[0].organizer));
        expect(body.organizer[0].description).toBe(
          renderDescription(stored.organizer[0].description),
        );
        expect(stored.title_rendered).toBe(body.title);
        expect(stored.description_rendered).toBe(body.description);
        expect(stored.excerpt_rendered).toBe(body.excerpt);
        expect(stored.venue.venue_rendered).toBe(body.venue.venue);
        expect(stored.venue.description_rendered).toBe(body.venue.description);
        expect(stored.organizer[0].organizer_rendered).toBe(body.organizer[0].organizer);
        expect(stored.organizer[0].description_rendered).toBe(body.organizer[0].description);

        // What is read back raw and sent again changes nothing …
        const again = await rest.post(
          `/events/${body.id}`,
          { title: stored.title, description: stored.description, excerpt: stored.excerpt },
          admin,
        );
        expect(again.status).toBe(200);
        expect(await raw(body.id)).toEqual(stored);
        // … and an update stores the new text exactly, through GraphQL as through REST.
        const updated = await env.ok(
          `mutation($id: Int!, $input: EventInput!) {
            update_event(id: $id, input: $input) { title description excerpt }
          }`,
          { id: body.id, input: { title: name, description: vd, excerpt: od } },
          admin,
        );
        expect(updated.update_event).toEqual({
          title: name,
          description: sanitizeRichText(vd),
          excerpt: sanitizeRichText(od),
        });
        const read = await rest.get(`/events/${body.id}`);
        expect(read.body.title).toBe(renderTitle(name));
        expect(read.body.description).toBe(renderDescription(sanitizeRichText(vd)));
      }),
      { numRuns: 20, seed: 18 },
    );
  });

  it('renders titles, names, descriptions and excerpts as the reference does', async () => {
    const created = await rest.post(
      '/events',
      {
        title: `Rock 'n' roll -- the '90s & more...`,
        description: 'First line\nsecond line\n\nSecond "paragraph"',
        excerpt: 'Jazz!',
        ...DATES,
        venue: { venue: `O'Brien's Hall ${Date.now()}`, description: 'The big hall' },
      },
      admin,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Rock &#8216;n&#8217; roll &#8212; the &#8217;90s &#038; more&#8230;',
      description: '<p>First line<br />\nsecond line</p>\n<p>Second &#8220;paragraph&#8221;</p>',
      excerpt: '<p>Jazz!</p>',
      venue: { description: '<p>The big hall</p>' },
    });
    expect(created.body.venue.venue).toMatch(/^O&#8217;Brien&#8217;s Hall \d+$/);
    const single = await rest.get(`/events/${created.body.id}`);
    expect(single.body.title).toBe(created.body.title);
    expect(single.body.json_ld).toMatchObject({
      name: 'Rock ‘n’ roll — the ’90s & more…',
      description: 'Jazz!',
    });
    const listed = await rest.get(`/events?include=${created.body.id}`);
    expect(listed.body.events[0]).toMatchObject({
      title: created.body.title,
      description: created.body.description,
      excerpt: created.body.excerpt,
    });
  });

  it('keeps an empty description and excerpt empty', async () => {
    const created = await rest.post('/events', { title: 'x', ...DATES }, admin);
    expect(created.body).toMatchObject({ title: 'x', description: '', excerpt: '' });
  });

  it('shows both forms in the SOFA view, and only the rendered one under the raw name in /doc', async () => {
    const created = await rest.post(
      '/events',
      { title: `It's on`, description: 'Plain', ...DATES },
      admin,
    );
    const sofa = await env.app.yoga.fetch(
      `http://localhost${env.config.apiRoot}/calendar/rest/event/${created.body.id}`,
    );
    expect(await sofa.json()).toMatchObject({
      title: `It's on`,
      title_rendered: 'It&#8217;s on',
      description: 'Plain',
      description_rendered: '<p>Plain</p>',
    });
    const doc = await rest.get('/doc');
    const event = doc.body.components.schemas.Event.properties;
    expect(Object.keys(event).filter((k) => k.endsWith('_rendered'))).toEqual([]);
    expect(event.description.description).toMatch(/as the REST contract sends it/);
  });
});
