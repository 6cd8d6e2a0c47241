import { Link, useParams } from 'react-router-dom';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PageSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { isNotFound } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { MarkdownContent } from './Markdown.tsx';

const RELATED: Record<string, { to: string; label: string }[]> = {
  'help-centre': [
    { to: '/help-centre/faq', label: 'Frequently asked questions' },
    { to: '/pages/contact', label: 'Contact us' },
  ],
  faq: [
    { to: '/help-centre', label: 'Help centre' },
    { to: '/pages/contact', label: 'Contact us' },
  ],
};

/** A page kept in the database as Markdown: /pages/{slug}, /terms, /help-centre and the FAQ. */
export function StaticPage({ slug: fixedSlug }: { slug?: string }) {
  const params = useParams();
  const slug = fixedSlug ?? params.slug ?? '';
  const page = trpc.platform.pages.bySlug.useQuery(
    { slug },
    { retry: (count, error) => !isNotFound(error) && count < 1 },
  );
  usePageMeta(
    page.data?.seoTitle ?? page.data?.title ?? (page.isError ? 'Page not found' : 'Loading'),
    page.data?.seoDescription ?? page.data?.description,
  );
  if (page.isPending) return <PageSkeleton />;
  if (page.isError) {
    if (isNotFound(page.error) || page.error.data?.httpStatus === 400) return <NotFoundContent />;
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-12">
        <QueryError what="this page" onRetry={() => page.refetch()} retrying={page.isFetching} />
      </div>
    );
  }
  const updated = new Date(page.data.updatedAt).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    // The same day on the server that rendered it and in the browser that hydrates it.
    timeZone: 'Europe/London',
  });
  const related = RELATED[slug];
  return (
    <article data-testid="static-page">
      <PageHeader title={page.data.title} description={page.data.description} />
      <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 lg:px-8">
        <MarkdownContent>{page.data.bodyMarkdown}</MarkdownContent>
        {related ? (
          <nav aria-label="Related pages" className="mt-10 flex flex-wrap gap-3">
            {related.map((link) => (
              <Link
                key={link.to}
                to={link.to}
                className="rounded-full border border-line px-4 py-2 text-sm font-semibold hover:border-ink/30 hover:bg-paper-deep"
              >
                {link.label}
              </Link>
            ))}
          </nav>
        ) : null}
        <p className="mt-10 text-sm text-ink-muted">Last updated {updated}</p>
      </div>
    </article>
  );
}
