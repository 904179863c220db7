import type { AppContext } from '../../context';
import { siteLinks, type Page } from '../page';
import { eventPage as eventsPage } from './summaries';

/** `/`: what the service is, in two lines, its interfaces, and the next few events. */
export async function homePage(ctx: AppContext): Promise<Page> {
  const next = await eventsPage(ctx, { per_page: 5 }, 1);
  return {
    status: 200,
    template: 'home',
    data: { upcoming: next.events },
    meta: {
      title: 'Events calendar',
      description:
        'An events calendar: events, venues, organizers, categories and tags, on the web and through GraphQL, REST and iCalendar feeds.',
      canonical: `${ctx.config.siteUrl}/`,
      ogType: 'website',
      jsonLd: [
        {
          '@context': 'http://schema.org',
          '@type': 'WebSite',
          url: `${ctx.config.siteUrl}/`,
          name: siteLinks(ctx.config).name,
        },
      ],
    },
  };
}
