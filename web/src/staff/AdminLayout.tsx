/**
 * The staff area's frame (spec section 2): the sidebar with the spec's links in its order
 * (admin-pages.ts, with Charities, Orders, Payments and Logs), a
 * header with the search box ("Search (⌘K)"), the links to analytics and revenue and back to
 * the site, and the command palette. Pages render inside it, including the not-found page for
 * links whose pages come in later issues.
 */
import { countOf } from '@reshelf/contracts';
import { ArrowLeft, Search } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router-dom';
import { useHideSiteChrome } from '../components/site-chrome.tsx';
import { ReshelfMark } from '../components/Wordmark.tsx';
import { useSession } from '../lib/session.ts';
import { useStickyBar } from '../lib/sticky-bar.ts';
import { trpc } from '../lib/trpc.ts';
import { cn } from '../lib/utils.ts';
import { ADMIN_HEADER_PAGES, ADMIN_HOME, ADMIN_SIDEBAR_PAGES } from './admin-pages.ts';
import { CommandPalette } from './CommandPalette.tsx';
import { Sidebar, SidebarLink, SidebarProvider, SidebarTrigger, useSidebar } from './sidebar.tsx';
import { isShortcut } from './sidebar-state.ts';

export const SEARCH_LABEL = 'Search (⌘K)';

export function AdminLayout() {
  useHideSiteChrome();
  const [paletteOpen, setPaletteOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShortcut(event, 'k')) return;
      event.preventDefault();
      setPaletteOpen((open) => !open);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <SidebarProvider>
      <StaffSidebar />
      <div className="flex min-w-0 flex-1 flex-col">
        <StaffHeader onSearch={() => setPaletteOpen(true)} />
        <div className="flex min-w-0 flex-1 flex-col">
          <Outlet />
        </div>
      </div>
      <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} />
    </SidebarProvider>
  );
}

function StaffSidebar() {
  const { state, isMobile, setOpenMobile } = useSidebar();
  const collapsed = state === 'collapsed' && !isMobile;
  const closeSheet = useCallback(() => setOpenMobile(false), [setOpenMobile]);
  // The queues' lengths beside their links; their pages refresh them as the work is done.
  const openReports = trpc.community.moderation.staff.openCount.useQuery(undefined, { staleTime: 60_000 });
  const open = openReports.data?.open ?? 0;
  const charities = trpc.charities.waitingCount.useQuery(undefined, { staleTime: 60_000 });
  const waiting = charities.data?.waiting ?? 0;
  const counts: Record<string, { count: number; description: string }> = {
    '/admin/reports': { count: open, description: countOf(open, 'open report', 'open reports') },
    '/admin/charities': {
      count: waiting,
      description: `${countOf(waiting, 'charity application', 'charity applications')} waiting`,
    },
  };
  return (
    <Sidebar label="Staff area">
      <div
        className={cn(
          'flex h-14 shrink-0 items-center gap-2.5 border-b border-line px-3',
          collapsed && 'justify-center px-0',
        )}
      >
        <Link
          to={ADMIN_HOME}
          onClick={isMobile ? closeSheet : undefined}
          className="flex min-w-0 items-center gap-2.5 rounded-md"
        >
          <ReshelfMark className="size-7 shrink-0" />
          <span className={cn('min-w-0 leading-tight', collapsed && 'sr-only')}>
            <span className="block font-serif text-lg font-bold tracking-tight text-ink">Reshelf</span>
            <span className="block text-xs font-semibold uppercase tracking-widest text-brand">
              Staff area
            </span>
            <span className="sr-only">, dashboard</span>
          </span>
        </Link>
      </div>
      <nav aria-label="Staff" className="min-h-0 flex-1 overflow-x-hidden overflow-y-auto p-2">
        <ul className="flex flex-col gap-0.5">
          {ADMIN_SIDEBAR_PAGES.map((page) => (
            <li key={page.path}>
              <SidebarLink
                to={page.path}
                label={page.label}
                icon={page.icon}
                end={page.path === ADMIN_HOME}
                onNavigate={isMobile ? closeSheet : undefined}
                badge={counts[page.path]}
              />
            </li>
          ))}
        </ul>
      </nav>
      <StaffSignedInAs collapsed={collapsed} />
    </Sidebar>
  );
}

function StaffSignedInAs({ collapsed }: { collapsed: boolean }) {
  const session = useSession();
  const access = trpc.staff.dashboard.access.useQuery();
  const user = session.status === 'signed-in' ? session.user : null;
  if (!user || collapsed) return null;
  return (
    <div className="shrink-0 border-t border-line px-3 py-3 text-sm" data-testid="staff-signed-in-as">
      <p className="truncate font-semibold text-ink">{user.displayName || user.email}</p>
      <p className="truncate text-xs text-ink-muted">
        {user.email}
        {access.data?.roles.length ? ` · ${access.data.roles.join(', ')}` : ''}
      </p>
    </div>
  );
}

function StaffHeader({ onSearch }: { onSearch: () => void }) {
  // Sticky: focus scrolls clear of it (WCAG 2.4.11).
  const header = useRef<HTMLElement>(null);
  useStickyBar(header, 'top');
  return (
    <header
      ref={header}
      data-testid="staff-header"
      className="sticky top-[var(--shell-top,0px)] z-20 flex h-14 shrink-0 items-center gap-2 border-b border-line bg-paper/95 px-2 backdrop-blur-sm sm:gap-3 sm:px-4"
    >
      <SidebarTrigger />
      <button
        type="button"
        onClick={onSearch}
        aria-label={SEARCH_LABEL}
        aria-haspopup="dialog"
        aria-keyshortcuts="Control+K Meta+K"
        data-testid="staff-search"
        className="flex h-10 min-w-0 flex-1 cursor-pointer items-center gap-2 rounded-lg border border-ink/15 bg-white px-3 text-left text-sm text-ink-muted shadow-xs transition-colors hover:border-ink/30 sm:max-w-sm"
      >
        <Search aria-hidden="true" className="size-4 shrink-0" />
        <span className="truncate">{SEARCH_LABEL}</span>
      </button>
      <nav aria-label="Staff shortcuts" className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1">
        {ADMIN_HEADER_PAGES.map(({ path, label, icon: Icon }) => (
          <NavLink
            key={path}
            to={path}
            title={label}
            className="flex h-10 items-center gap-2 rounded-md px-2.5 text-sm font-semibold text-ink-soft transition-colors hover:bg-paper-deep hover:text-ink aria-[current=page]:text-brand"
          >
            <Icon aria-hidden="true" className="size-4 shrink-0" />
            <span className="max-md:sr-only">{label}</span>
          </NavLink>
        ))}
        <Link
          to="/"
          title="Back to site"
          className="flex h-10 items-center gap-2 rounded-md px-2.5 text-sm font-semibold text-brand transition-colors hover:bg-brand-soft"
        >
          <ArrowLeft aria-hidden="true" className="size-4 shrink-0" />
          <span className="max-md:sr-only">Back to site</span>
        </Link>
      </nav>
    </header>
  );
}
