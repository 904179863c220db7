import type { AppContext } from '../../context';
import type { Taxonomy } from '../../db';
import { notFound, sanitizeRichText } from '../../lib';
import { renderDescription, renderedText } from '../../posts';
import { listTerms, termUrl } from '../../terms';
import type { Page } from '../page';
import { eventPage as eventsPage, plainTitle } from './summaries';

/**
 * `/events/category/<slug>/` (child categories nest their parents' slugs, as the API's `url`
 * does: the last one names the category) and `/tag/<slug>/`: the term and its upcoming events,
 * paged.
 */
export async function termPage(
  ctx: AppContext,
  taxonomy: Taxonomy,
  slug: string,
  page: number,
): Promise<Page> {
  const { rows } = await listTerms(ctx, taxonomy, { slug, hide_empty: false, per_page: 1 });
  const term = rows[0];
  if (!term) throw notFound(taxonomy, slug);
  const filter = taxonomy === 'category' ? { categories: [term.slug] } : { tags: [term.slug] };
  const events = await eventsPage(ctx, filter, page);
  const name = plainTitle(term.name);
  const rendered = renderDescription(term.description);
  const label = taxonomy === 'category' ? 'Category' : 'Tag';
  return {
    status: 200,
    template: 'term',
    data: {
      term: { name, label, description: sanitizeRichText(rendered) },
      events,
    },
    meta: {
      title: `${label}: ${name}`,
      description: renderedText(rendered).slice(0, 300) || `Upcoming events: ${name}.`,
      canonical: await termUrl(ctx, term),
      ogType: 'website',
      noindex: page > 1,
    },
  };
}
