/**
 * The staff area's sidebar (spec sections 2 and 9): 16rem wide, collapsing to a 3rem rail of
 * icons (with tooltips); below 768 px an 18rem sheet that slides over the page. Ctrl/Cmd+B
 * toggles it anywhere in the staff area, and the desktop open state is kept in the
 * `sidebar_state` cookie for 7 days.
 */
import { ADMIN_SIDEBAR } from '@reshelf/contracts';
import type { LucideIcon } from 'lucide-react';
import { PanelLeft } from 'lucide-react';
import {
  type CSSProperties,
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { NavLink } from 'react-router-dom';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../components/ui/sheet.tsx';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from '../components/ui/tooltip.tsx';
import { useIsMobile } from '../lib/use-media-query.ts';
import { cn } from '../lib/utils.ts';
import { isShortcut, readSidebarOpen, sidebarCookie } from './sidebar-state.ts';

export const SIDEBAR_ID = 'staff-sidebar';

interface SidebarContextValue {
  /** Desktop: expanded (16rem) or collapsed to icons (3rem). */
  state: 'expanded' | 'collapsed';
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Phones: the sheet is showing. */
  openMobile: boolean;
  setOpenMobile: (open: boolean) => void;
  isMobile: boolean;
  toggleSidebar: () => void;
}

const SidebarContext = createContext<SidebarContextValue | null>(null);

export function useSidebar(): SidebarContextValue {
  const context = useContext(SidebarContext);
  if (!context) throw new Error('useSidebar must be used inside <SidebarProvider>');
  return context;
}

export function SidebarProvider({ children }: { children: ReactNode }) {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => readSidebarOpen(document.cookie) ?? true);
  const [openMobile, setOpenMobile] = useState(false);
  const openRef = useRef(open);
  openRef.current = open;

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from some browsers we support.
    document.cookie = sidebarCookie(value);
  }, []);

  const toggleSidebar = useCallback(() => {
    if (isMobile) setOpenMobile((current) => !current);
    else setOpen(!openRef.current);
  }, [isMobile, setOpen]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShortcut(event, ADMIN_SIDEBAR.shortcutKey)) return;
      event.preventDefault();
      toggleSidebar();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggleSidebar]);

  // Leaving the phone layout closes the sheet, so it is not open when the window narrows again.
  useEffect(() => {
    if (!isMobile) setOpenMobile(false);
  }, [isMobile]);

  const value = useMemo<SidebarContextValue>(
    () => ({
      state: open ? 'expanded' : 'collapsed',
      open,
      setOpen,
      openMobile,
      setOpenMobile,
      isMobile,
      toggleSidebar,
    }),
    [open, setOpen, openMobile, isMobile, toggleSidebar],
  );

  return (
    <SidebarContext.Provider value={value}>
      <TooltipProvider delayDuration={0}>
        <div
          data-testid="staff-shell"
          style={
            {
              '--sidebar-width': ADMIN_SIDEBAR.width,
              '--sidebar-width-mobile': ADMIN_SIDEBAR.widthMobile,
              '--sidebar-width-icon': ADMIN_SIDEBAR.widthCollapsed,
            } as CSSProperties
          }
          className="flex w-full flex-1"
        >
          {children}
        </div>
      </TooltipProvider>
    </SidebarContext.Provider>
  );
}

/** The sidebar itself: fixed on the left from 768 px, a sheet below. */
export function Sidebar({ children, label }: { children: ReactNode; label: string }) {
  const { isMobile, state, openMobile, setOpenMobile } = useSidebar();
  if (isMobile) {
    return (
      <Sheet open={openMobile} onOpenChange={setOpenMobile}>
        <SheetContent
          id={SIDEBAR_ID}
          data-testid="staff-sidebar"
          data-mobile="true"
          closeLabel="Close the menu"
          // Portalled out of the shell, so the width is given here rather than by its variable.
          style={{ width: ADMIN_SIDEBAR.widthMobile }}
          className="max-w-[calc(100vw-2.5rem)] pt-[var(--shell-top,0px)] pb-[var(--shell-bottom,0px)]"
        >
          <SheetTitle className="sr-only">{label}</SheetTitle>
          <SheetDescription className="sr-only">Pages of the staff area</SheetDescription>
          <div className="flex min-h-0 flex-1 flex-col">{children}</div>
        </SheetContent>
      </Sheet>
    );
  }
  return (
    <div className="group/sidebar hidden md:block" data-state={state}>
      {/* Keeps the page clear of the fixed sidebar, and follows its width. */}
      <div
        aria-hidden="true"
        className="w-(--sidebar-width) transition-[width] duration-200 ease-out group-data-[state=collapsed]/sidebar:w-(--sidebar-width-icon)"
      />
      <aside
        id={SIDEBAR_ID}
        data-testid="staff-sidebar"
        data-state={state}
        aria-label={label}
        className="fixed top-[var(--shell-top,0px)] bottom-[var(--shell-bottom,0px)] left-0 z-30 flex w-(--sidebar-width) flex-col overflow-hidden border-r border-line bg-paper-deep transition-[width] duration-200 ease-out group-data-[state=collapsed]/sidebar:w-(--sidebar-width-icon)"
      >
        {children}
      </aside>
    </div>
  );
}

/** The button that opens and closes the sidebar (the sheet on phones). */
export function SidebarTrigger({ className }: { className?: string }) {
  const { toggleSidebar, isMobile, open, openMobile } = useSidebar();
  return (
    <button
      type="button"
      onClick={toggleSidebar}
      aria-controls={SIDEBAR_ID}
      aria-expanded={isMobile ? openMobile : open}
      aria-keyshortcuts="Control+B Meta+B"
      title="Toggle the sidebar (Ctrl/⌘ B)"
      data-testid="sidebar-trigger"
      className={cn(
        'grid size-10 shrink-0 cursor-pointer place-items-center rounded-md text-ink-soft transition-colors hover:bg-paper-deep hover:text-ink',
        className,
      )}
    >
      <PanelLeft aria-hidden="true" className="size-5" />
      <span className="sr-only">Toggle sidebar</span>
    </button>
  );
}

/**
 * One link of the sidebar: icon and label; collapsed to its icon, the label stays its
 * accessible name and shows as a tooltip.
 */
export function SidebarLink({
  to,
  label,
  icon: Icon,
  end = false,
  onNavigate,
  badge,
}: {
  to: string;
  label: string;
  icon: LucideIcon;
  end?: boolean;
  onNavigate?: () => void;
  /** A number beside the label (e.g. open reports); described, so the link's name stays the label. */
  badge?: { count: number; description: string };
}) {
  const { state, isMobile } = useSidebar();
  const collapsed = state === 'collapsed' && !isMobile;
  const badgeId = useId();
  const shown = badge && badge.count > 0 ? badge : null;
  const link = (
    <NavLink
      to={to}
      end={end}
      onClick={onNavigate}
      aria-describedby={shown ? badgeId : undefined}
      className={cn(
        'flex h-9 min-w-0 items-center gap-3 rounded-md px-2.5 text-sm font-medium text-ink-soft transition-colors hover:bg-paper-edge hover:text-ink aria-[current=page]:bg-paper aria-[current=page]:font-semibold aria-[current=page]:text-brand aria-[current=page]:shadow-card',
        collapsed && 'justify-center px-0',
      )}
    >
      <Icon aria-hidden="true" className="size-4 shrink-0" />
      <span className={cn('truncate', collapsed && 'sr-only')}>{label}</span>
      {shown ? (
        <span
          data-testid="sidebar-badge"
          className={cn(
            'ml-auto shrink-0 rounded-full bg-brand px-1.5 text-xs font-semibold text-brand-foreground tabular-nums',
            collapsed && 'sr-only',
          )}
          aria-hidden="true"
        >
          {shown.count}
        </span>
      ) : null}
      {shown ? (
        <span id={badgeId} hidden>
          {shown.description}
        </span>
      ) : null}
    </NavLink>
  );
  if (!collapsed) return link;
  return (
    <Tooltip>
      <TooltipTrigger asChild>{link}</TooltipTrigger>
      <TooltipContent side="right">{label}</TooltipContent>
    </Tooltip>
  );
}
