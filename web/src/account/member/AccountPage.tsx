import {
  BadgeCheck,
  ChevronRight,
  KeyRound,
  Loader2,
  LogOut,
  MailWarning,
  Settings,
  ShieldCheck,
  ShoppingBag,
  Store,
  UserRound,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { QueryView } from '../../kit/index.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { type SessionUser, useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { textLinkClass } from '../auth/AuthShell.tsx';
import { useSignOut } from '../auth/use-sign-out.ts';

/**
 * /account (signed in): buying and selling (orders, sales, offers, payouts), the profile, the
 * email address's status, staff links and signing out.
 */
export function AccountPage() {
  usePageMeta('Your account');
  const session = useSession();
  // The guard renders this page only for a signed-in person.
  if (session.status !== 'signed-in') return null;
  const { user } = session;

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 md:py-14 lg:px-8">
      <p className="text-sm font-semibold uppercase tracking-widest text-brand">Your account</p>
      <h1 className="mt-2 break-words text-3xl font-semibold sm:text-4xl" data-testid="account-name">
        {user.displayName || user.email}
      </h1>
      <p className="mt-2 break-words text-ink-muted">{user.email}</p>

      {!user.signupCompleted || !user.onboarded ? (
        <Alert tone="info" title="Finish setting up your account" className="mt-6">
          {!user.signupCompleted ? (
            <Link to="/complete-signup" className={textLinkClass}>
              Complete your profile
            </Link>
          ) : (
            <Link to="/onboarding" className={textLinkClass}>
              Pick your favourite genres
            </Link>
          )}
        </Alert>
      ) : null}

      <div className="mt-8 grid gap-4 md:grid-cols-2">
        <Card icon={ShoppingBag} title="Buying" testId="account-buying">
          <p className="text-ink-soft">
            Track what you’ve bought, confirm it arrived safely, and answer sellers’ counter-offers.
          </p>
          <div className="mt-auto flex flex-wrap gap-x-5 gap-y-1">
            <CardLink to="/account/orders">Your orders</CardLink>
            <CardLink to="/account/offers?view=made">Offers you’ve made</CardLink>
            <CardLink to="/account/wishlist">Wishlist</CardLink>
            <CardLink to="/account/wants">Wants</CardLink>
            <CardLink to="/social">Your feed</CardLink>
            <CardLink to="/account/following">Following</CardLink>
            <CardLink to="/account/saved-searches">Saved searches</CardLink>
            <CardLink to="/account/reading-lists">Reading lists (Goodreads, StoryGraph)</CardLink>
            <CardLink to="/recommendations">Recommended for you</CardLink>
            <CardLink to="/account/reviews">Your reviews</CardLink>
          </div>
        </Card>
        <Card icon={Store} title="Selling" testId="account-selling">
          <p className="text-ink-soft">
            Send what you’ve sold, answer buyers’ offers, and see what you’ve earned.
          </p>
          <div className="mt-auto flex flex-wrap gap-x-5 gap-y-1">
            <CardLink to="/account/sales">Your sales</CardLink>
            <CardLink to="/account/offers?view=received">Offers received</CardLink>
            <CardLink to="/account/payouts">Payouts</CardLink>
            <CardLink to="/account/listings">Your listings</CardLink>
            <CardLink to="/account/analytics">Seller analytics</CardLink>
          </div>
        </Card>
        <ProfileCard />
        <EmailCard user={user} />
        <Card icon={KeyRound} title="Password">
          <p className="text-ink-soft">
            To change your password, we'll email you a link. Changing it signs you out on every device.
          </p>
          <CardLink to="/forgot-password">Change your password</CardLink>
        </Card>
        <Card icon={Settings} title="Settings" testId="account-settings">
          <p className="text-ink-soft">
            Choose which notifications are also emailed to you. API tokens let your own scripts and other apps
            use Reshelf as you (staff, sellers and charities).
          </p>
          <CardLink to="/account/settings#emails">Email settings</CardLink>
          <CardLink to="/account/settings">API tokens</CardLink>
        </Card>
        {user.isStaff || user.adminLevel > 0 ? <StaffCard user={user} /> : null}
        <SignOutCard />
      </div>
    </div>
  );
}

type IconType = typeof UserRound;

function Card({
  icon: Icon,
  title,
  children,
  className,
  testId,
}: {
  icon: IconType;
  title: string;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const id = `account-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      data-testid={testId}
      className={cn(
        'flex flex-col gap-3 rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6',
        className,
      )}
    >
      <h2 id={id} className="flex items-center gap-2.5 text-xl font-semibold">
        <span className="flex size-9 items-center justify-center rounded-full bg-brand-soft text-brand">
          <Icon aria-hidden="true" className="size-4.5" />
        </span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function CardLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className={cn('mt-auto inline-flex items-center gap-1 self-start pt-1 text-sm', textLinkClass)}
    >
      {children}
      <ChevronRight aria-hidden="true" className="size-4" />
    </Link>
  );
}

function ProfileCard() {
  const profile = trpc.account.member.profile.useQuery();
  const genres = trpc.catalogue.taxonomy.public.genres.useQuery();
  const favourites =
    profile.data && genres.data
      ? genres.data
          .filter((genre) => profile.data.favouriteGenreIds.includes(genre.id))
          .map((genre) => genre.name)
      : [];

  return (
    <Card icon={UserRound} title="Profile" className="md:row-span-2" testId="account-profile">
      <QueryView
        query={profile}
        pending={
          <div
            role="status"
            aria-busy="true"
            aria-label="Loading your profile"
            className="flex flex-col gap-3"
          >
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
          </div>
        }
        error={(message) => <Alert tone="error">{message}</Alert>}
      >
        {(data) => (
          <dl className="grid gap-3 text-sm">
            <ProfileRow label="Display name">{data.displayName}</ProfileRow>
            <ProfileRow label="Town">{data.town ?? <NotGiven />}</ProfileRow>
            <ProfileRow label="About you">
              {data.bio ? <span className="whitespace-pre-line">{data.bio}</span> : <NotGiven />}
            </ProfileRow>
            <ProfileRow label="Favourite genres">
              {favourites.length ? (
                <ul className="mt-1 flex flex-wrap gap-1.5">
                  {favourites.map((name) => (
                    <li
                      key={name}
                      className="rounded-full bg-paper-deep px-2.5 py-0.5 text-xs font-medium text-ink-soft"
                    >
                      {name}
                    </li>
                  ))}
                </ul>
              ) : (
                <NotGiven />
              )}
            </ProfileRow>
          </dl>
        )}
      </QueryView>
      <div className="mt-auto flex flex-wrap gap-x-5 gap-y-1">
        <CardLink to="/complete-signup">Edit profile</CardLink>
        <CardLink to="/onboarding">Change genres and authors</CardLink>
      </div>
    </Card>
  );
}

function ProfileRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="font-semibold text-ink">{label}</dt>
      <dd className="mt-0.5 break-words text-ink-soft">{children}</dd>
    </div>
  );
}

function NotGiven() {
  return <span className="text-ink-muted italic">Not given</span>;
}

function EmailCard({ user }: { user: SessionUser }) {
  return (
    <Card icon={user.emailConfirmed ? BadgeCheck : MailWarning} title="Email address" testId="account-email">
      <p className="break-words text-ink-soft">{user.email}</p>
      <p>
        {user.emailConfirmed ? (
          <span className="inline-flex items-center gap-1.5 rounded-full bg-moss-soft px-2.5 py-0.5 text-xs font-semibold text-moss">
            <BadgeCheck aria-hidden="true" className="size-3.5" />
            Confirmed
          </span>
        ) : (
          <span className="inline-flex items-center gap-1.5 rounded-full bg-accent/25 px-2.5 py-0.5 text-xs font-semibold text-accent-foreground">
            <MailWarning aria-hidden="true" className="size-3.5" />
            Not confirmed
          </span>
        )}
      </p>
      <CardLink to="/email-verification">
        {user.emailConfirmed ? 'Email verification' : 'Confirm your email address'}
      </CardLink>
    </Card>
  );
}

function StaffCard({ user }: { user: SessionUser }) {
  return (
    <Card icon={ShieldCheck} title="Staff">
      <p className="text-ink-soft">
        {user.adminTier ? (
          <>
            Global admin tier: <strong className="text-ink">{user.adminTier}</strong>.
          </>
        ) : (
          'You have access to the staff area.'
        )}
      </p>
      <div className="mt-auto flex flex-wrap gap-x-5 gap-y-1">
        {user.isStaff ? <CardLink to="/admin">Staff area</CardLink> : null}
        {user.adminLevel > 0 ? <CardLink to="/global-admin">Global admin</CardLink> : null}
      </div>
    </Card>
  );
}

function SignOutCard() {
  const { signOut, pendingScope, error } = useSignOut();
  const busy = pendingScope !== undefined;
  return (
    <Card icon={LogOut} title="Sign out" className="md:col-span-2" testId="account-sign-out">
      <p className="text-ink-soft">
        Sign out on this device only, or everywhere: every phone, tablet and computer where you're signed in,
        including this one. Sign out everywhere if you think someone else has used your account.
      </p>
      {error ? <Alert tone="error">{apiErrorMessage(error)}</Alert> : null}
      <div className="mt-1 flex flex-col gap-3 sm:flex-row">
        <Button variant="outline" size="lg" disabled={busy} onClick={() => signOut('local')}>
          {pendingScope === 'local' ? (
            <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
          ) : (
            <LogOut aria-hidden="true" />
          )}
          Sign out on this device
        </Button>
        <Button variant="destructive" size="lg" disabled={busy} onClick={() => signOut('global')}>
          {pendingScope === 'global' ? (
            <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
          ) : null}
          Sign out everywhere
        </Button>
      </div>
    </Card>
  );
}
