/**
 * One query's four states, rendered the same way everywhere: failed (the server's message, with
 * "Try again"), loading, empty, and the data. Pages pass what each state says; the data state is
 * a render prop that receives the loaded data, already narrowed to defined.
 */
import type { ReactNode } from 'react';
import { RetryButton } from '../components/QueryError.tsx';
import { apiErrorMessage } from '../lib/api-errors.ts';
import { EmptyState, LoadingLine } from './feedback.tsx';

/** What QueryView needs of a TanStack/tRPC query result. */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isError: boolean;
  isPending: boolean;
  isFetching?: boolean;
  /** True while the data shown is the previous filters' (keepPreviousData) and the new is loading. */
  isPlaceholderData?: boolean;
  refetch?: () => unknown;
}

/** Empty by default: null, an empty array, or an object whose `rows`/`items` is an empty array. */
export function isEmptyData(data: unknown): boolean {
  if (data === null || data === undefined) return true;
  if (Array.isArray(data)) return data.length === 0;
  if (typeof data === 'object') {
    for (const key of ['rows', 'items'] as const) {
      const list = (data as Record<string, unknown>)[key];
      if (Array.isArray(list)) return list.length === 0;
    }
  }
  return false;
}

export interface QueryViewProps<T> {
  query: QueryLike<T>;
  /** While loading: a label for the spinner line ("Loading refunds…"), or any placeholder. */
  pending: ReactNode;
  /** When the data is empty: a message (shown in the empty box), or any element. Omit: always render data. */
  empty?: ReactNode;
  /** Which data counts as empty (default isEmptyData). */
  isEmpty?: (data: T) => boolean;
  emptyTestId?: string;
  /** Replaces the default error box: gets the message and the retry. */
  error?: (message: string, retry: (() => void) | undefined) => ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * Said while a page keeps showing the previous filters' results as the new ones load
 * (keepPreviousData): announced to screen readers, and marked `data-stale` so the browser tests,
 * after the address changes, wait for the answer to the new address (tests/support/browser.ts).
 * Rendered beside the results, never around them, so nothing in them is remounted.
 */
export function StaleMark({ stale }: { stale: boolean | undefined }) {
  return stale ? (
    <span role="status" className="sr-only" data-stale="">
      Updating…
    </span>
  ) : null;
}

/** The default failed state: the server's message, announced (role=alert), with "Try again". */
export function QueryFailed({
  message,
  onRetry,
  retrying = false,
}: {
  message: string;
  onRetry?: (() => void) | undefined;
  retrying?: boolean;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-xl border border-destructive/25 bg-destructive/5 p-5 sm:flex-row sm:items-center sm:justify-between"
      data-testid="query-error"
    >
      <p className="text-ink">{message}</p>
      {onRetry ? <RetryButton onRetry={onRetry} retrying={retrying} /> : null}
    </div>
  );
}

export function QueryView<T>({
  query,
  pending,
  empty,
  isEmpty = isEmptyData,
  emptyTestId,
  error,
  children,
}: QueryViewProps<T>) {
  if (query.isError) {
    const message = apiErrorMessage(query.error);
    const retry = query.refetch ? () => void query.refetch?.() : undefined;
    return error ? (
      error(message, retry)
    ) : (
      <QueryFailed message={message} onRetry={retry} retrying={query.isFetching} />
    );
  }
  if (query.isPending || query.data === undefined) {
    return typeof pending === 'string' ? <LoadingLine>{pending}</LoadingLine> : pending;
  }
  const data = query.data;
  const stale = <StaleMark stale={query.isPlaceholderData} />;
  if (empty !== undefined && isEmpty(data)) {
    return (
      <>
        {stale}
        {typeof empty === 'string' ? <EmptyState testId={emptyTestId}>{empty}</EmptyState> : empty}
      </>
    );
  }
  return (
    <>
      {stale}
      {children(data)}
    </>
  );
}
