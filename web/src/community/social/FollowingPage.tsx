import type { Follow, FollowKind } from '@reshelf/contracts';
import { countOf } from '@reshelf/contracts';
import { BookUser, HeartHandshake, Shapes, Store, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';

const KINDS: { kind: FollowKind; title: string; icon: typeof Store }[] = [
  { kind: 'seller', title: 'Sellers', icon: Store },
  { kind: 'charity', title: 'Charities', icon: HeartHandshake },
  { kind: 'author', title: 'Authors', icon: BookUser },
  { kind: 'genre', title: 'Genres', icon: Shapes },
];

/** /account/following: what the member follows, by kind, each with "Unfollow"; and their followers. */
export function FollowingPage() {
  usePageMeta('Following');
  const mine = trpc.community.social.follows.mine.useQuery(undefined, { staleTime: 0 });
  const utils = trpc.useUtils();
  const remove = trpc.community.social.follows.remove.useMutation({
    onSuccess: () => {
      void utils.community.social.follows.invalidate();
      void utils.community.social.feed.invalidate();
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const unfollow = (follow: Follow) =>
    remove.mutate(
      { id: follow.id },
      { onSuccess: () => notify.success(`No longer following ${follow.label}`) },
    );
  return (
    <div>
      <PageHeader
        title="Following"
        description="The sellers, charities, authors and genres whose new books come to your feed."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      >
        <p className="mt-3 text-sm">
          <Link to="/social" className="font-semibold text-brand underline-offset-4 hover:underline">
            Go to your feed
          </Link>
        </p>
      </PageHeader>
      <PageBody className="flex flex-col gap-8">
        {mine.isPending ? (
          <RowsSkeleton label="Loading what you follow" rows={Array(3).fill('h-14 w-full rounded-xl')} />
        ) : mine.isError ? (
          <QueryError what="what you follow" onRetry={() => mine.refetch()} retrying={mine.isFetching} />
        ) : (
          <>
            <p className="flex items-center gap-2 text-ink-soft" data-testid="my-followers">
              <Users aria-hidden="true" className="size-5 text-brand" />
              {mine.data.followers === 0
                ? 'No one follows you as a seller yet: readers who follow you see your new books first.'
                : `${countOf(mine.data.followers, 'reader follows', 'readers follow')} you as a seller.`}
            </p>
            {mine.data.follows.length === 0 ? (
              <div className="flex flex-col items-start gap-3" data-testid="following-empty">
                <p>You don’t follow anything yet.</p>
                <Button asChild variant="brand">
                  <Link to="/social">Find people and genres to follow</Link>
                </Button>
              </div>
            ) : (
              KINDS.map(({ kind, title, icon: Icon }) => {
                const follows = mine.data.follows.filter((follow) => follow.kind === kind);
                if (!follows.length) return null;
                return (
                  <section key={kind} aria-labelledby={`following-${kind}`}>
                    <h2
                      id={`following-${kind}`}
                      className="flex items-center gap-2 font-serif text-xl font-semibold"
                    >
                      <Icon aria-hidden="true" className="size-5 text-brand" />
                      {title}
                    </h2>
                    <ul className="mt-3 divide-y divide-line rounded-xl border border-line bg-paper">
                      {follows.map((follow) => (
                        <li
                          key={follow.id}
                          className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
                          data-testid="follow-row"
                        >
                          <Link to={follow.href} className="font-semibold underline-offset-4 hover:underline">
                            {follow.label}
                          </Link>
                          <Button
                            variant="outline"
                            size="sm"
                            disabled={remove.isPending && remove.variables?.id === follow.id}
                            onClick={() => unfollow(follow)}
                          >
                            Unfollow<span className="sr-only"> {follow.label}</span>
                          </Button>
                        </li>
                      ))}
                    </ul>
                  </section>
                );
              })
            )}
          </>
        )}
      </PageBody>
    </div>
  );
}
