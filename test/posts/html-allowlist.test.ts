import { sanitizeRichText } from '../../src/lib/html';
import { GLOBAL_ATTRIBUTES, POST_TAGS } from '../../src/lib/html-allowlist';

/**
 * Descriptions and excerpts keep WordPress's post allowlist (`wp_kses_allowed_html('post')`,
 * docs/contract.md §4): its elements, their attributes and the global ones, and nothing else.
 */
describe('the post HTML allowlist', () => {
  it.each(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])('keeps <%s> with its alignment', (tag) => {
    const html = `<${tag} align="center" class="title" id="top">Heading</${tag}>`;
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('keeps figures, captions and tables with their attributes', () => {
    const figure =
      '<figure align="left" class="wp-block-image"><img src="https://img.example/a.png" alt="A" width="10" height="20" loading="lazy" /><figcaption>Caption</figcaption></figure>';
    expect(sanitizeRichText(figure)).toBe(figure);
    const table =
      '<table border="1" cellpadding="2" summary="s"><caption>C</caption><colgroup><col span="2" /></colgroup><thead><tr><th scope="col" colspan="2">H</th></tr></thead><tbody><tr><td rowspan="1" valign="top">a</td><td>b</td></tr></tbody><tfoot><tr><td>f</td></tr></tfoot></table>';
    expect(sanitizeRichText(table)).toBe(table);
  });

  it('keeps every listed element, with a global attribute', () => {
    const voids = new Set(['br', 'hr', 'img', 'col', 'area', 'track']);
    for (const tag of Object.keys(POST_TAGS)) {
      const html = voids.has(tag)
        ? `<${tag} class="c" />`
        : `<${tag} class="c" data-x="1" aria-label="l">t</${tag}>`;
      expect({ tag, out: sanitizeRichText(html) }).toEqual({ tag, out: html });
    }
    expect(GLOBAL_ATTRIBUTES).toEqual(expect.arrayContaining(['class', 'id', 'style', 'title']));
  });

  it('drops what WordPress drops: other elements, event handlers, scripts, bad schemes', () => {
    expect(sanitizeRichText('<p onclick="x()">Hi<script>alert(1)</script></p>')).toBe('<p>Hi</p>');
    expect(
      sanitizeRichText('<iframe src="https://x.example"></iframe><form><input /></form>ok'),
    ).toBe('ok');
    expect(sanitizeRichText('<object data="x.pdf" type="application/pdf"></object>')).toBe('');
    expect(sanitizeRichText('<a href="javascript:alert(1)" target="_blank">x</a>')).toBe(
      '<a target="_blank">x</a>',
    );
    expect(sanitizeRichText('<img src="data:image/png;base64,AAAA" onerror="x()" />')).toBe(
      '<img />',
    );
  });

  it("keeps WordPress's URL schemes and relative links", () => {
    for (const href of [
      'https://a.example',
      'webcal://a.example/cal.ics',
      'tel:+1555',
      '/events/',
    ]) {
      expect(sanitizeRichText(`<a href="${href}">x</a>`)).toBe(`<a href="${href}">x</a>`);
    }
  });

  it('keeps the safe CSS of a style attribute and drops the rest', () => {
    expect(sanitizeRichText('<p style="color: red; text-align: center">x</p>')).toBe(
      '<p style="color:red;text-align:center">x</p>',
    );
    expect(sanitizeRichText('<p style="width: calc(100% - 2em)">x</p>')).toBe(
      '<p style="width:calc(100% - 2em)">x</p>',
    );
    expect(
      sanitizeRichText(
        '<p style="position: fixed; background-image: url(javascript:x); color: expression(alert(1))">x</p>',
      ),
    ).toBe('<p>x</p>');
  });

  it('answers its own output unchanged', () => {
    for (const html of [
      '<h1 style="color:red" class="a">T</h1><p>x &amp; y</p>',
      '<table><tr><td>a</td></tr></table><hr />',
    ]) {
      const once = sanitizeRichText(html);
      expect(sanitizeRichText(once)).toBe(once);
    }
  });
});
