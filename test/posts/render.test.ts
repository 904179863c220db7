import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { decodeHTML } from 'entities';
import {
  renderDescription,
  renderExcerpt,
  renderTitle,
  renderedText,
} from '../../src/posts/render';

/**
 * Rendering on output (docs/contract.md §4): WordPress's title, content and excerpt filters.
 * Three kinds of checks: the reference's captured answers (every write sample that carries a
 * title, name, description or excerpt), WordPress's own answers for harder inputs, and properties
 * over generated texts.
 */

const SAMPLES = path.join(__dirname, '../fixtures/reference-samples');

interface Written {
  sample: string;
  path: string;
  body: Record<string, any>;
}

/** The write rows of the samples' INDEX.md: name, path and request body. */
function writes(): Written[] {
  const rows: Written[] = [];
  for (const line of fs.readFileSync(path.join(SAMPLES, 'INDEX.md'), 'utf8').split('\n')) {
    const cells = line.split(' | ').map((c) => c.trim());
    const [sample, method, route, , body, status] = cells;
    if (method !== 'POST' || !body?.startsWith('`{') || !/^20[01]/.test(status ?? '')) continue;
    rows.push({
      sample: sample!.replace(/^\| /, ''),
      path: route!.replace(/`/g, ''),
      body: JSON.parse(body.slice(1, -1)),
    });
  }
  return rows;
}

type Render = (text: string) => string;

/** [what, input, render, the reference's answer] for every rendered field a write sent. */
function sampleCases(): [string, string, Render, unknown][] {
  const cases: [string, string, Render, unknown][] = [];
  for (const { sample, path: route, body } of writes()) {
    const answer = JSON.parse(fs.readFileSync(path.join(SAMPLES, `${sample}.json`), 'utf8'));
    const add = (field: string, render: Render, input: unknown, got: unknown) => {
      if (typeof input === 'string') cases.push([`${sample} ${field}`, input, render, got]);
    };
    // Terms are not rendered: the reference sends their descriptions as stored.
    if (!/^\/(events|venues|organizers)/.test(route)) continue;
    const name = route.startsWith('/venues') ? 'venue' : 'organizer';
    if (route.startsWith('/events')) add('title', renderTitle, body.title, answer.title);
    else add(name, renderTitle, body[name], answer[name]);
    add('description', renderDescription, body.description, answer.description);
    add('excerpt', renderExcerpt, body.excerpt, answer.excerpt);
    // Venues and organizers created inline by an event write.
    if (route === '/events' && typeof body.venue === 'object') {
      add('venue.venue', renderTitle, body.venue.venue, answer.venue.venue);
    }
    for (const [i, organizer] of (Array.isArray(body.organizer) ? body.organizer : []).entries()) {
      if (typeof organizer !== 'object') continue;
      add(`organizer[${i}]`, renderTitle, organizer.organizer, answer.organizer[i].organizer);
    }
  }
  return cases;
}

describe('rendering', () => {
  const cases = sampleCases();

  it('covers every rendered field the reference samples wrote', () => {
    expect(cases.length).toBeGreaterThanOrEqual(13);
  });

  it.each(cases)('matches the reference sample: %s', (_what, input, render, answer) => {
    expect(render(input)).toBe(answer);
  });

  // Expected values: WordPress 6's own the_content / the_excerpt / the_title on these inputs.
  it.each([
    ['a<hr />b', '<p>a</p>\n<hr />\n<p>b</p>'],
    [
      'Line one\nLine two\n\nSecond paragraph',
      '<p>Line one<br />\nLine two</p>\n<p>Second paragraph</p>',
    ],
    ['<h1>Title</h1>\nText after', '<h1>Title</h1>\n<p>Text after</p>'],
    ['東京\u3000タワー\n\n大阪', '<p>東京\u3000タワー</p>\n<p>大阪</p>'],
    ['\u00a0', '<p>\u00a0</p>'],
    [
      '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\nAfter the list',
      '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p>After the list</p>',
    ],
    [
      `<pre>keep 'quotes'\n\n  as is</pre>\n\nthen "texturise"`,
      `<pre>keep 'quotes'\n\n  as is</pre>\n<p>then &#8220;texturise&#8221;</p>`,
    ],
    [
      `Tom &amp; Jerry's -- "best" show... 9x12`,
      '<p>Tom &amp; Jerry&#8217;s &#8212; &#8220;best&#8221; show&#8230; 9&#215;12</p>',
    ],
    ['<table><tr><td>a</td></tr></table>', '<table>\n<tr>\n<td>a</td>\n</tr>\n</table>'],
    ['Wordpress is "Wordpress"', '<p>WordPress is &#8220;WordPress&#8221;</p>'],
    [
      `<figure><img src="x.png" /><figcaption>A 'caption'</figcaption></figure>`,
      '<figure><img src="x.png" /><figcaption>A &#8216;caption&#8217;</figcaption></figure>',
    ],
    ['<p>Para one</p><p>Para two</p>', '<p>Para one</p>\n<p>Para two</p>'],
  ])('renders a description as WordPress does: %j', (input, expected) => {
    expect(renderDescription(input)).toBe(expected);
  });

  it('renders an excerpt as WordPress does (no capital P there)', () => {
    expect(renderExcerpt('Wordpress is "Wordpress"')).toBe(
      '<p>Wordpress is &#8220;Wordpress&#8221;</p>',
    );
    expect(renderExcerpt('Fish &amp; Chips & more')).toBe('<p>Fish &amp; Chips &#038; more</p>');
  });

  it.each([
    [`Rock 'n' roll -- the '90s`, 'Rock &#8216;n&#8217; roll &#8212; the &#8217;90s'],
    ['Fish &amp; Chips & more', 'Fish &amp; Chips &#038; more'],
    ['Wordpress meetup (tm)', 'WordPress meetup &#8482;'],
    [`Привет, 'мир' - «ёлка»`, 'Привет, &#8216;мир&#8217; &#8211; «ёлка»'],
    ['emoji 😀 "x"...', 'emoji 😀 &#8220;x&#8221;&#8230;'],
    [`9' 6" tall`, '9&#8242; 6&#8243; tall'],
    [
      `'cause today's effort makes it worth tomorrow's "holiday" ...`,
      '&#8217;cause today&#8217;s effort makes it worth tomorrow&#8217;s &#8220;holiday&#8221; &#8230;',
    ],
  ])('renders a title as WordPress does: %j', (input, expected) => {
    expect(renderTitle(input)).toBe(expected);
  });

  it('escapes markup in titles, which are plain text [ours]', () => {
    expect(renderTitle('<b>"Big"</b> & <i>small</i>')).toBe(
      '&lt;b&gt;&#8220;Big&#8221;&lt;/b&gt; &#038; &lt;i&gt;small&lt;/i&gt;',
    );
    // WordPress leaves the content of <script>, <code> … alone: so does the title filter here.
    expect(renderTitle(`<code>"x"</code> "y"`)).toBe(
      '&lt;code&gt;"x"&lt;/code&gt; &#8220;y&#8221;',
    );
  });

  it('keeps lone surrogates and long texts as they render (renders are copied flat)', () => {
    expect(renderTitle('A\ud800B')).toBe('A\ud800B');
    expect(renderDescription('x\udfffy')).toBe('<p>x\udfffy</p>');
    const long = `${'word '.repeat(600)}end`;
    expect(renderDescription(long)).toBe(`<p>${long}</p>`);
    // Memoised renders answer the same string each time.
    expect(renderExcerpt('Short one')).toBe(renderExcerpt('Short one'));
  });

  it('gives JSON-LD the plain text of a rendering', () => {
    expect(renderedText(renderTitle(`Rock 'n' roll & <more>`))).toBe('Rock ‘n’ roll & <more>');
    expect(renderedText(renderDescription('<p>One &amp; "two"</p>'))).toBe('One & “two”');
  });
});

/** Generated texts: words of several scripts, emoji, spaces, quotes, dashes and ampersands. */
const WORDS = [
  'jazz',
  'Night',
  'café',
  'Привет',
  'мир',
  '東京',
  'タワー',
  'مرحبا',
  'שלום',
  '😀',
  '🎷',
];
const PUNCTUATION = [
  `'`,
  '"',
  '-',
  '--',
  '---',
  '...',
  '&',
  '&amp;',
  '(',
  ')',
  ',',
  '.',
  '!',
  '9',
  'x',
];
const word = fc.constantFrom(...WORDS, ...PUNCTUATION);
const line = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
const paragraph = fc.array(line, { minLength: 1, maxLength: 3 }).map((l) => l.join('\n'));
const inline = fc.constantFrom(
  '<strong>',
  '</strong>',
  '<em>',
  '</em>',
  '<a href="https://x.example/?a=1&amp;b=2">',
  '</a>',
);
const richParagraph = fc
  .array(fc.oneof(line, inline), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(' '));
const document = fc
  .array(fc.oneof(paragraph, richParagraph), { minLength: 1, maxLength: 4 })
  .map((p) => p.join('\n\n'));

/** Plain text WordPress's filters leave as it is: no quote, dash, dot, ampersand, `x` or digit. */
const untouched = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 })
  .map((w) => w.join(' '));

describe('rendering, over generated texts', () => {
  it('wraps each paragraph in <p> and breaks single newlines with <br />', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(untouched, { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (paras) => {
          const text = paras.map((lines) => lines.join('\n')).join('\n\n');
          const expected = paras.map((lines) => `<p>${lines.join('<br />\n')}</p>`).join('\n');
          expect(renderDescription(text)).toBe(expected);
          expect(renderExcerpt(text)).toBe(expected);
        },
      ),
    );
  });

  it('leaves titles without typography unchanged, in every script', () => {
    fc.assert(
      fc.property(untouched, (title) => {
        expect(renderTitle(title)).toBe(title);
      }),
    );
  });

  it('sends titles with no raw markup and no bare ampersand, whose decoded text keeps every word', () => {
    fc.assert(
      fc.property(fc.oneof(line, richParagraph), (title) => {
        const rendered = renderTitle(title);
        expect(rendered).not.toMatch(/[<>]/);
        if (!title.includes('<')) expect(rendered).not.toContain('"');
        expect(rendered).not.toMatch(/&(?!#\d+;|[a-z]+;)/i);
        const decoded = decodeHTML(rendered);
        for (const w of WORDS) expect(decoded.split(w).length).toBe(title.split(w).length);
      }),
    );
  });

  it('keeps the markup and every word of descriptions, in paragraphs', () => {
    fc.assert(
      fc.property(document, (text) => {
        const rendered = renderDescription(text);
        expect(rendered.startsWith('<')).toBe(true);
        for (const tag of ['<strong>', '</strong>', '<em>', '</em>', '</a>']) {
          expect(rendered.split(tag).length).toBe(text.split(tag).length);
        }
        const decoded = renderedText(rendered);
        for (const w of WORDS) expect(decoded.split(w).length).toBe(text.split(w).length);
        expect(rendered.split('<p>').length - 1).toBeGreaterThanOrEqual(text.split('\n\n').length);
      }),
    );
  });

  it('answers the same for the same text (renders are reused)', () => {
    fc.assert(
      fc.property(document, (text) => {
        const first = renderDescription(text);
        expect(renderDescription(`${text}`)).toBe(first);
        expect(renderTitle(text)).toBe(renderTitle(text));
      }),
    );
  });
});
