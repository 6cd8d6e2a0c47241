import type { FollowTargetInput } from '@reshelf/contracts';
import { countOf } from '@reshelf/contracts';
import { Check, Plus } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router-dom';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

/**
 * Follow a seller, a charity, an author or a genre. Signed in: pressed when the
 * member follows it, with how many do; a tap changes it at once and puts it back if the API
 * says no. Signed out: a tap goes to /login and comes back here. Nothing is asked of the API
 * until the session is known, so a page rendered on the server shows the plain button.
 */
export function FollowButton({
  target,
  name,
  withName = false,
  notFollowed = false,
  className,
}: {
  target: FollowTargetInput;
  /** What is followed, for screen readers and the toast ("Jane Austen"). */
  name: string;
  /** Show the name on the button too (several authors side by side). */
  withName?: boolean;
  /**
   * Known not to be followed (a suggestion): no status is asked for until the member follows
   * it, so a page of suggestions makes no burst of requests.
   */
  notFollowed?: boolean;
  className?: string;
}) {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const navigate = useNavigate();
  const location = useLocation();
  const utils = trpc.useUtils();
  const status = trpc.community.social.follows.status.useQuery(
    { target },
    { enabled: signedIn && !notFollowed },
  );
  const mutation = trpc.community.social.follows.set.useMutation({
    onMutate: async ({ following }) => {
      await utils.community.social.follows.status.cancel({ target });
      const before = utils.community.social.follows.status.getData({ target });
      utils.community.social.follows.status.setData({ target }, (current) =>
        current
          ? {
              following,
              followers: Math.max(
                0,
                current.followers + (following === current.following ? 0 : following ? 1 : -1),
              ),
            }
          : current,
      );
      return { before };
    },
    onError: (error, _input, context) => {
      utils.community.social.follows.status.setData({ target }, context?.before);
      notify.error(apiErrorMessage(error));
    },
    onSuccess: (result, { following }) => {
      utils.community.social.follows.status.setData({ target }, result);
      void utils.community.social.follows.mine.invalidate();
      void utils.community.social.feed.invalidate();
      notify.success(following ? `Following ${name}` : `No longer following ${name}`);
    },
  });
  const following = status.data?.following ?? false;
  const followers = status.data?.followers;
  return (
    <span className={cn('inline-flex items-center gap-3', className)}>
      <button
        type="button"
        aria-pressed={signedIn ? following : undefined}
        data-testid="follow-button"
        disabled={signedIn && ((!notFollowed && status.isPending) || mutation.isPending)}
        onClick={() => {
          if (!signedIn) {
            navigate(loginPath(pathOf(location)));
            return;
          }
          mutation.mutate({ target, following: !following });
        }}
        className={cn(
          'inline-flex h-10 cursor-pointer items-center justify-center gap-2 rounded-full border px-4 text-sm font-semibold transition-colors disabled:cursor-wait disabled:opacity-70',
          following
            ? 'border-brand/40 bg-brand-soft text-brand hover:bg-brand-soft/70'
            : 'border-ink/20 bg-paper text-ink hover:border-ink/35 hover:bg-paper-deep',
        )}
      >
        {following ? (
          <Check aria-hidden="true" className="size-4" />
        ) : (
          <Plus aria-hidden="true" className="size-4" />
        )}
        {following ? 'Following' : 'Follow'}
        {withName ? <span> {name}</span> : <span className="sr-only"> {name}</span>}
      </button>
      {signedIn && followers !== undefined ? (
        <span className="text-sm text-ink-muted" data-testid="follower-count">
          {countOf(followers, 'follower', 'followers')}
        </span>
      ) : null}
    </span>
  );
}
