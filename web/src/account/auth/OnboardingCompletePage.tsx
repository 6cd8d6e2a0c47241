import { ArrowRight, PartyPopper } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { AuthShell, textLinkClass } from './AuthShell.tsx';

/** /onboarding/complete (signed in): the end of sign-up, with the genres picked (if any). */
export function OnboardingCompletePage() {
  usePageMeta("You're all set");
  const session = useSession();
  const location = useLocation();
  const skipped = Boolean((location.state as { skipped?: boolean } | null)?.skipped);
  const profile = trpc.account.member.profile.useQuery();
  const genres = trpc.catalogue.taxonomy.public.genres.useQuery();
  const name = session.status === 'signed-in' ? session.user.displayName : '';
  const favourites =
    profile.data && genres.data
      ? genres.data.filter((genre) => profile.data.favouriteGenreIds.includes(genre.id))
      : [];

  return (
    <AuthShell title={name ? `You're all set, ${name}` : "You're all set"} width="wide">
      <div className="flex flex-col gap-6">
        <div className="flex gap-4">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-moss-soft text-moss">
            <PartyPopper aria-hidden="true" className="size-5" />
          </span>
          <p className="text-ink-soft">
            Your account is ready. Find your next read, or clear some shelf space by selling a book.
          </p>
        </div>
        {favourites.length > 0 ? (
          <div>
            <h2 className="font-sans text-sm font-semibold text-ink">Your favourite genres</h2>
            <ul className="mt-3 flex flex-wrap gap-2" data-testid="favourite-genres">
              {favourites.map((genre) => (
                <li
                  key={genre.id}
                  className="rounded-full bg-brand-soft px-3 py-1 text-sm font-medium text-brand"
                >
                  {genre.name}
                </li>
              ))}
            </ul>
          </div>
        ) : profile.isSuccess ? (
          <p className="text-sm text-ink-muted">
            {skipped ? 'You skipped picking genres. ' : ''}
            <Link to="/onboarding" className={textLinkClass}>
              Pick favourite genres
            </Link>{' '}
            whenever you like.
          </p>
        ) : null}
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button asChild variant="hero" size="lg">
            <Link to="/listings">
              Browse books
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to="/account">Go to your account</Link>
          </Button>
        </div>
      </div>
    </AuthShell>
  );
}
