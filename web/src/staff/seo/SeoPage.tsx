/**
 * /admin/seo (admins): the titles and descriptions search engines and browser tabs show for
 * static pages (/pages/{slug}) and category pages (/c/{slug}). Left empty, a page uses its own
 * title and description. A moderator's attempt is refused by the server.
 */
import { PRODUCT } from '@reshelf/contracts';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { AdminPageFrame, EmptyState } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label, Textarea } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { DEFAULT_DESCRIPTION } from '../../lib/page-meta.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { useSetSeo } from './hooks.ts';

type Entry = RouterOutputs['staff']['seo']['list']['pages'][number];
type Kind = 'page' | 'category';

const TITLE_MAX = 70;
const DESCRIPTION_MAX = 160;

/** What the page shows when no SEO text is set (the same rules as StaticPage and CategoryPage). */
function defaults(kind: Kind, entry: Entry): { title: string; description: string } {
  if (kind === 'page')
    return { title: entry.name, description: entry.defaultDescription ?? DEFAULT_DESCRIPTION };
  return {
    title: `${entry.name} books`,
    description:
      `Second-hand ${entry.name.toLowerCase()} books for sale on Reshelf. ${entry.defaultDescription ?? ''}`.trim(),
  };
}

export function SeoPage() {
  const seo = trpc.staff.seo.list.useQuery();
  return (
    <AdminPageFrame
      title="SEO"
      description="The titles and descriptions search engines and browser tabs show for static pages and category pages. Leave a field empty to use the page's own."
      testId="seo-page"
    >
      <QueryView query={seo} pending="Loading pages…">
        {(data) => (
          <>
            <SeoSection kind="page" title="Static pages" entries={data.pages} />
            <SeoSection kind="category" title="Category pages" entries={data.categories} />
          </>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

function SeoSection({ kind, title, entries }: { kind: Kind; title: string; entries: Entry[] }) {
  const [editing, setEditing] = useState<string | null>(null);
  const headingId = `seo-${kind}-title`;
  return (
    <section className="flex flex-col gap-3" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-2xl font-semibold">
        {title}
      </h2>
      {entries.length === 0 ? (
        <EmptyState>Nothing here yet.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-2">
          {entries.map((entry) => {
            const path = kind === 'page' ? `/pages/${entry.slug}` : `/c/${entry.slug}`;
            const fallback = defaults(kind, entry);
            return (
              <li
                key={entry.slug}
                data-testid="seo-entry"
                data-path={path}
                className="rounded-xl border border-line bg-paper p-4"
              >
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold">
                      {entry.name}{' '}
                      <Link to={path} className="font-mono text-xs text-brand hover:underline">
                        {path}
                      </Link>
                    </p>
                    <p className="mt-1 text-sm">
                      <span className="text-ink-muted">Title: </span>
                      {entry.seoTitle ?? (
                        <span className="text-ink-muted">{fallback.title} (the page's own)</span>
                      )}
                    </p>
                    <p className="text-sm">
                      <span className="text-ink-muted">Description: </span>
                      {entry.seoDescription ?? (
                        <span className="text-ink-muted">{fallback.description} (the page's own)</span>
                      )}
                    </p>
                  </div>
                  {editing === entry.slug ? null : (
                    <Button variant="outline" size="sm" onClick={() => setEditing(entry.slug)}>
                      <Pencil aria-hidden="true" /> Edit <span className="sr-only">{entry.name}</span>
                    </Button>
                  )}
                </div>
                {editing === entry.slug ? (
                  <SeoForm kind={kind} entry={entry} fallback={fallback} onClose={() => setEditing(null)} />
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function SeoForm({
  kind,
  entry,
  fallback,
  onClose,
}: {
  kind: Kind;
  entry: Entry;
  fallback: { title: string; description: string };
  onClose: () => void;
}) {
  const form = useForm({
    defaultValues: { seoTitle: entry.seoTitle ?? '', seoDescription: entry.seoDescription ?? '' },
  });
  const seoTitle = form.watch('seoTitle');
  const seoDescription = form.watch('seoDescription');
  const save = useSetSeo({
    onSuccess: () => {
      toast({ title: 'SEO saved', description: `${entry.name} shows the new text now.` });
      onClose();
    },
    onError: (error) =>
      toast({ variant: 'destructive', title: 'SEO not saved', description: apiErrorMessage(error) }),
  });
  const prefix = `seo-${kind}-${entry.slug}`;
  const submit = form.handleSubmit((values) => save.mutate({ kind, slug: entry.slug, ...values }));
  return (
    <form className="mt-3 flex flex-col gap-3" onSubmit={submit} aria-label={`SEO for ${entry.name}`}>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${prefix}-title`}>Search title</Label>
        <Input
          id={`${prefix}-title`}
          maxLength={TITLE_MAX}
          placeholder={fallback.title}
          {...form.register('seoTitle')}
        />
        <p className="text-xs text-ink-muted">
          {seoTitle.length}/{TITLE_MAX} · tabs show “{seoTitle.trim() || fallback.title} · {PRODUCT.name}”
        </p>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${prefix}-description`}>Search description</Label>
        <Textarea
          id={`${prefix}-description`}
          maxLength={DESCRIPTION_MAX}
          placeholder={fallback.description}
          className="min-h-20"
          {...form.register('seoDescription')}
        />
        <p className="text-xs text-ink-muted">
          {seoDescription.length}/{DESCRIPTION_MAX}
        </p>
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          Save
        </Button>
        <Button type="button" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
