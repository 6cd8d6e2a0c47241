/**
 * The staff command palette, opened by the "Search (⌘K)" box or Ctrl/Cmd+K: jump to any staff
 * page, or find a person, listing or order by text (`staff.dashboard.search`).
 */
import { formatPence } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { BookOpen, LoaderCircle, ReceiptText, Search, UserRound } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../components/ui/dialog.tsx';
import { trpc } from '../lib/trpc.ts';
import { ADMIN_PAGES, type AdminPage } from './admin-pages.ts';
export const SEARCH_MIN_LENGTH = 2;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function pageMatches(page: AdminPage, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [page.label, page.path, ...(page.aliases ?? []), ...(page.keywords ?? [])].some((word) =>
    word.toLowerCase().includes(needle),
  );
}

const itemClasses =
  'flex min-w-0 cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm text-ink data-[selected=true]:bg-paper-deep data-[selected=true]:text-ink';

function Group({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <Command.Group
      heading={heading}
      className="py-1 [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:uppercase [&_[cmdk-group-heading]]:tracking-wider [&_[cmdk-group-heading]]:text-ink-muted"
    >
      {children}
    </Command.Group>
  );
}

export function CommandPalette({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 200);
  const searching = open && q.length >= SEARCH_MIN_LENGTH;
  const results = trpc.staff.dashboard.search.useQuery(
    { q },
    { enabled: searching, placeholderData: keepPreviousData, staleTime: 30_000 },
  );

  useEffect(() => {
    if (!open) setSearch('');
  }, [open]);

  const go = (path: string) => {
    onOpenChange(false);
    navigate(path);
  };

  const pages = ADMIN_PAGES.filter((page) => pageMatches(page, search));
  const found = searching && search.trim().length >= SEARCH_MIN_LENGTH ? results.data : undefined;
  const waiting = search.trim().length >= SEARCH_MIN_LENGTH && (q !== search.trim() || results.isFetching);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        closeLabel="Close search"
        data-testid="command-palette"
        className="top-[10vh] max-w-xl translate-y-0 gap-0 overflow-hidden p-0 sm:top-[14vh]"
      >
        <DialogTitle className="sr-only">Search the staff area</DialogTitle>
        <DialogDescription className="sr-only">
          Jump to a staff page, or find a person, listing or order.
        </DialogDescription>
        <Command shouldFilter={false} loop vimBindings={false} label="Search the staff area">
          <div className="flex items-center gap-2 border-b border-line pr-12 pl-4">
            <Search aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
            <Command.Input
              value={search}
              onValueChange={setSearch}
              placeholder="Pages, people, listings or orders…"
              className="h-13 w-full min-w-0 bg-transparent text-base text-ink outline-none placeholder:text-ink-muted/80"
            />
            {waiting ? (
              <LoaderCircle
                aria-label="Searching"
                className="size-4 shrink-0 text-ink-muted motion-safe:animate-spin"
              />
            ) : null}
          </div>
          <Command.List className="max-h-[min(60dvh,26rem)] overflow-y-auto overscroll-contain p-2">
            {!waiting ? (
              <Command.Empty className="px-3 py-8 text-center text-sm text-ink-muted">
                Nothing matches “{search.trim()}”. Try an email, a title or an order reference.
              </Command.Empty>
            ) : null}
            {pages.length ? (
              <Group heading="Pages">
                {pages.map(({ path, label, icon: Icon }) => (
                  <Command.Item
                    key={path}
                    value={`page ${path}`}
                    onSelect={() => go(path)}
                    className={itemClasses}
                  >
                    <Icon aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
                    <span className="truncate">{label}</span>
                    <span className="ml-auto shrink-0 text-xs text-ink-muted">{path}</span>
                  </Command.Item>
                ))}
              </Group>
            ) : null}
            {found?.users.length ? (
              <Group heading="People">
                {found.users.map((user) => (
                  <Command.Item
                    key={user.id}
                    value={`user ${user.id}`}
                    onSelect={() => go(`/admin/users?q=${encodeURIComponent(user.email)}`)}
                    className={itemClasses}
                  >
                    <UserRound aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
                    <span className="truncate">{user.displayName || user.email}</span>
                    <span className="ml-auto truncate text-xs text-ink-muted">{user.email}</span>
                  </Command.Item>
                ))}
              </Group>
            ) : null}
            {found?.listings.length ? (
              <Group heading="Listings">
                {found.listings.map((listing) => (
                  <Command.Item
                    key={listing.id}
                    value={`listing ${listing.id}`}
                    onSelect={() => go(`/listing/${listing.slug}`)}
                    className={itemClasses}
                  >
                    <BookOpen aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
                    <span className="min-w-0">
                      <span className="block truncate">{listing.title}</span>
                      <span className="block truncate text-xs text-ink-muted">{listing.sellerName}</span>
                    </span>
                    <span className="ml-auto shrink-0 text-right text-xs text-ink-muted">
                      {listing.priceMinor !== null ? formatPence(listing.priceMinor) : ''}
                      <span className="block">{listing.status}</span>
                    </span>
                  </Command.Item>
                ))}
              </Group>
            ) : null}
            {found?.orders.length ? (
              <Group heading="Orders">
                {found.orders.map((order) => (
                  <Command.Item
                    key={order.id}
                    value={`order ${order.id}`}
                    onSelect={() => go(`/admin/orders?q=${encodeURIComponent(order.reference)}`)}
                    className={itemClasses}
                  >
                    <ReceiptText aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
                    <span className="truncate font-mono text-[0.8rem]">{order.reference}</span>
                    <span className="ml-auto shrink-0 text-xs text-ink-muted">
                      {order.status.replace('_', ' ')} · {formatPence(order.totalMinor)}
                    </span>
                  </Command.Item>
                ))}
              </Group>
            ) : null}
          </Command.List>
        </Command>
      </DialogContent>
    </Dialog>
  );
}
