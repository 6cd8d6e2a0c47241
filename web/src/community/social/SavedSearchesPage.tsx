import {
  countOf,
  SAVED_SEARCH_ALERT_LABELS,
  SAVED_SEARCH_ALERTS,
  type SavedSearch,
  type SavedSearchAlerts,
} from '@reshelf/contracts';
import { Search } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';

/** What each alert setting does, after its label ("No alerts: …"), so never the label again. */
const ALERT_HINTS: Record<SavedSearchAlerts, string> = {
  instant: 'in the app and by email as soon as a matching book is listed',
  daily: 'in the app at once, by email in one digest a day',
  off: 'the search is kept for you to run, and we tell you of nothing new',
};

/** "At once: in the app and by email as soon as a matching book is listed". */
function alertsHelp(alerts: SavedSearchAlerts): string {
  return `${SAVED_SEARCH_ALERT_LABELS[alerts]}: ${ALERT_HINTS[alerts]}`;
}

function SavedSearchRow({ search }: { search: SavedSearch }) {
  const utils = trpc.useUtils();
  const update = trpc.community.social.savedSearches.update.useMutation({
    onSuccess: () => {
      void utils.community.social.savedSearches.invalidate();
      notify.success('Alerts changed');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const remove = trpc.community.social.savedSearches.remove.useMutation({
    onSuccess: () => {
      void utils.community.social.savedSearches.invalidate();
      notify.success(`Deleted “${search.name}”`);
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const selectId = `alerts-${search.id}`;
  return (
    <li className="flex flex-col gap-3 px-4 py-4 sm:flex-row sm:items-center" data-testid="saved-search">
      <div className="min-w-0 flex-1">
        <Link
          to={`/search?${search.query}`}
          className="font-semibold break-words underline-offset-4 hover:underline"
        >
          {search.name}
        </Link>
        <p className="text-sm text-ink-muted">
          {search.recentMatches
            ? `${countOf(search.recentMatches, 'new book', 'new books')} in the last 7 days`
            : 'No new books in the last 7 days'}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={selectId} className="sr-only">
          Alerts for {search.name}
        </label>
        <select
          id={selectId}
          value={search.alerts}
          disabled={update.isPending}
          title={alertsHelp(search.alerts)}
          onChange={(event) =>
            update.mutate({ id: search.id, alerts: event.target.value as SavedSearchAlerts })
          }
          className="h-9 rounded-md border border-line bg-white px-2 text-sm text-ink shadow-sm"
        >
          {SAVED_SEARCH_ALERTS.map((alerts) => (
            <option key={alerts} value={alerts}>
              {SAVED_SEARCH_ALERT_LABELS[alerts]}
            </option>
          ))}
        </select>
        <Button
          variant="outline"
          size="sm"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ id: search.id })}
        >
          Delete<span className="sr-only"> {search.name}</span>
        </Button>
      </div>
    </li>
  );
}

/** /account/saved-searches: each saved search with its alerts, to run, change or delete. */
export function SavedSearchesPage() {
  usePageMeta('Saved searches');
  const list = trpc.community.social.savedSearches.list.useQuery(undefined, { staleTime: 0 });
  return (
    <div>
      <PageHeader
        title="Saved searches"
        description="We tell you when a new book matching one of these is listed: at once, or in one email a day."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      >
        <p className="mt-3 text-sm text-ink-muted" data-testid="saved-search-alerts-help">
          {SAVED_SEARCH_ALERTS.map((alerts) => `${alertsHelp(alerts)}.`).join(' ')}
        </p>
      </PageHeader>
      <PageBody>
        {list.isPending ? (
          <RowsSkeleton label="Loading your saved searches" rows={Array(3).fill('h-16 w-full rounded-xl')} />
        ) : list.isError ? (
          <QueryError what="your saved searches" onRetry={() => list.refetch()} retrying={list.isFetching} />
        ) : list.data.length === 0 ? (
          <div className="flex flex-col items-start gap-4" data-testid="saved-searches-empty">
            <Search aria-hidden="true" className="size-6 text-brand" />
            <p>
              No saved searches yet. Search for a book, or use the advanced search, then choose “Save this
              search” to hear when a copy is listed.
            </p>
            <Button asChild variant="brand">
              <Link to="/search/advanced">Advanced search</Link>
            </Button>
          </div>
        ) : (
          <ul
            className="divide-y divide-line rounded-xl border border-line bg-paper"
            data-testid="saved-searches"
          >
            {list.data.map((search) => (
              <SavedSearchRow key={search.id} search={search} />
            ))}
          </ul>
        )}
      </PageBody>
    </div>
  );
}
