import {
  Bell,
  BellRing,
  BookHeart,
  BookOpen,
  ChevronDown,
  HandCoins,
  Heart,
  HeartHandshake,
  Library,
  LogOut,
  type LucideIcon,
  MessageCircle,
  Rss,
  ShieldCheck,
  ShoppingBag,
  Store,
  UserRound,
} from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useSignOut } from '../../account/auth/use-sign-out.ts';
import { NotificationBell } from '../../account/notifications/NotificationBell.tsx';
import { MessagesLink } from '../../community/messages/MessagesLink.tsx';
import { Button } from '../../components/ui/button.tsx';
import { loginPath, pathOf } from '../../lib/next-path.ts';
import { type SessionUser, useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

/** Pages about signing in: coming back to them after signing in makes no sense. */
const AUTH_PAGES = ['/login', '/forgot-password', '/reset-password', '/email-confirmation', '/auth/confirm'];

/** The account menu's links, in order: the member's own pages, then their charity's and staff areas. */
function accountMenuLinks(
  user: SessionUser,
): { to: string; label: string; icon: LucideIcon; testId?: string }[] {
  return [
    { to: '/account', label: 'Your account', icon: UserRound },
    { to: '/account/orders', label: 'Your orders', icon: ShoppingBag },
    { to: '/account/sales', label: 'Your sales', icon: Store },
    { to: '/account/offers', label: 'Offers', icon: HandCoins },
    { to: '/account/listings', label: 'Your listings', icon: BookOpen },
    { to: '/account/wishlist', label: 'Wishlist', icon: Heart },
    { to: '/account/wants', label: 'Wants', icon: BookHeart },
    { to: '/account/series', label: 'Your series', icon: Library },
    { to: '/social', label: 'Your feed', icon: Rss, testId: 'menu-feed' },
    { to: '/account/saved-searches', label: 'Saved searches', icon: BellRing },
    { to: '/messages', label: 'Messages', icon: MessageCircle, testId: 'menu-messages' },
    { to: '/account/notifications', label: 'Notifications', icon: Bell },
    ...(user.charitySlug
      ? [{ to: '/charity/dashboard', label: 'Your charity', icon: HeartHandshake, testId: 'menu-charity' }]
      : []),
    ...(user.isStaff ? [{ to: '/admin', label: 'Staff area', icon: ShieldCheck }] : []),
    ...(user.adminLevel > 0 ? [{ to: '/global-admin', label: 'Global admin', icon: ShieldCheck }] : []),
  ];
}

/**
 * The header's account corner: "Sign in" when signed out, the account menu when signed in.
 * While `account.auth.me` loads it holds the space with a neutral placeholder, so neither state flashes.
 */
export function HeaderAccount() {
  const session = useSession();
  const location = useLocation();

  if (session.status === 'loading') {
    return (
      <span
        role="status"
        aria-label="Checking whether you're signed in"
        data-testid="header-account-loading"
        className="block h-9 w-20 rounded-md bg-paper-edge/60 motion-safe:animate-pulse"
      />
    );
  }

  if (session.status === 'signed-in') {
    return (
      <>
        <MessagesLink />
        <NotificationBell />
        <AccountMenu user={session.user} />
      </>
    );
  }

  const here = AUTH_PAGES.includes(location.pathname) ? null : pathOf(location);
  return (
    <Button asChild variant="outline" size="sm" className="px-3">
      <Link to={loginPath(here)} data-testid="header-sign-in">
        Sign in
      </Link>
    </Button>
  );
}

function AccountMenu({ user }: { user: SessionUser }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const { signOut, pendingScope } = useSignOut();
  const name = user.displayName || user.email;
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  // The messages link in the header has the count; the menu's Messages item says it too.
  const unreadMessages =
    trpc.community.messages.member.unread.useQuery(undefined, { staleTime: 15_000 }).data?.messages ?? 0;

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        toggle.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

  const close = () => setOpen(false);
  const itemClass =
    'flex w-full cursor-pointer items-center gap-2.5 rounded-md px-3 py-2.5 text-left text-sm font-medium text-ink-soft transition-colors hover:bg-paper-deep hover:text-ink [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-ink-muted';

  return (
    <div ref={container} className="relative" data-testid="account-menu">
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        className="flex h-9 max-w-52 cursor-pointer items-center gap-2 rounded-full border border-transparent py-1 pr-2 pl-1 text-sm font-semibold text-ink-soft transition-colors hover:border-line hover:bg-paper-deep aria-expanded:border-line aria-expanded:bg-paper-deep"
      >
        <span
          aria-hidden="true"
          className="relative flex size-7 shrink-0 items-center justify-center rounded-full bg-brand font-serif text-sm text-brand-foreground"
        >
          {initial}
        </span>
        <span className="sr-only">Account menu for </span>
        <span className="truncate max-sm:sr-only" data-testid="account-menu-name">
          {name}
        </span>
        <ChevronDown
          aria-hidden="true"
          className={cn('size-4 shrink-0 transition-transform max-sm:hidden', open && 'rotate-180')}
        />
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute top-full right-0 z-[55] mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-xl border border-line bg-paper p-2 shadow-card-hover"
        >
          <div className="border-b border-line px-3 pt-1.5 pb-3">
            <p className="truncate font-semibold text-ink">{name}</p>
            <p className="truncate text-xs text-ink-muted">{user.email}</p>
          </div>
          <ul className="flex flex-col py-1.5">
            {accountMenuLinks(user).map(({ to, label, icon: Icon, testId }) => (
              <li key={to}>
                <Link to={to} onClick={close} className={itemClass} data-testid={testId}>
                  <Icon aria-hidden="true" />
                  {label}
                  {to === '/messages' && unreadMessages ? (
                    <span className="ml-auto rounded-full bg-brand px-1.5 text-xs font-bold text-brand-foreground">
                      {unreadMessages > 99 ? '99+' : unreadMessages}
                      <span className="sr-only"> unread</span>
                    </span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
          <div className="border-t border-line pt-1.5">
            <button
              type="button"
              className={itemClass}
              disabled={pendingScope !== undefined}
              onClick={() => signOut('local')}
            >
              <LogOut aria-hidden="true" />
              {pendingScope ? 'Signing out…' : 'Sign out'}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
