import {
  countOf,
  WANT_ALERT_LABELS,
  WANT_ALERTS,
  WANT_WORDS,
  type WantAlerts,
  type WantView,
  wantConditionsLine,
} from '@reshelf/contracts';
import { BookHeart } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { RowsSkeleton } from '../../components/placeholders.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { WantForm } from './WantForm.tsx';

function WantRow({
  want,
  editing,
  focusEdit,
  onEdit,
  onClose,
}: {
  want: WantView;
  /** Its conditions form is open in place. */
  editing: boolean;
  /** Focus goes back to its Edit button (the form was just closed, here or by becoming this want). */
  focusEdit: boolean;
  onEdit: () => void;
  /** The form is done with: `kept` is the want that now stands for it (another one when they became one). */
  onClose: (kept: string) => void;
}) {
  const utils = trpc.useUtils();
  const editButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusEdit && !editing) editButton.current?.focus();
  }, [focusEdit, editing]);
  const alerts = trpc.community.wants.update.useMutation({
    onSuccess: () => {
      void utils.community.wants.invalidate();
      notify.success('Alerts changed');
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const conditions = trpc.community.wants.update.useMutation({
    onSuccess: (kept) => {
      // The row shows what was saved at once (and loses the want that became the kept one).
      utils.community.wants.list.setData(undefined, (wants) =>
        wants
          ?.filter((other) => other.id === kept.id || other.id !== want.id)
          .map((other) => (other.id === kept.id ? kept : other)),
      );
      void utils.community.wants.invalidate();
      notify.success(WANT_WORDS.changed(kept.id !== want.id));
      onClose(kept.id);
    },
  });
  const remove = trpc.community.wants.remove.useMutation({
    onSuccess: () => {
      void utils.community.wants.invalidate();
      notify.success(`Removed “${want.title}” from your wants`);
    },
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const selectId = `want-alerts-${want.id}`;
  return (
    <li className="flex flex-col gap-3 px-4 py-4" data-testid="want">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1">
          {want.path ? (
            <Link to={want.path} className="font-semibold break-words underline-offset-4 hover:underline">
              {want.title}
            </Link>
          ) : (
            <span className="font-semibold break-words">{want.title}</span>
          )}
          {want.authors.length ? <span className="text-ink-soft"> · {want.authors.join(', ')}</span> : null}
          <p className="text-sm text-ink-soft" data-testid="want-conditions">
            {WANT_WORDS.kind[want.kind]} · {wantConditionsLine(want.conditions)}
          </p>
          <p className="text-sm text-ink-muted" data-testid="want-on-sale">
            {want.matchesOnSale && want.path ? (
              <Link to={want.path} className="font-medium text-brand underline-offset-4 hover:underline">
                {countOf(want.matchesOnSale, 'copy', 'copies')} on sale now
              </Link>
            ) : want.matchesOnSale ? (
              `${countOf(want.matchesOnSale, 'copy', 'copies')} on sale now`
            ) : (
              'No copy on sale right now: we’ll tell you when one is listed'
            )}
          </p>
        </div>
        {editing ? null : (
          <div className="flex flex-wrap items-center gap-3">
            <label htmlFor={selectId} className="sr-only">
              Alerts for {want.title}
            </label>
            <select
              id={selectId}
              value={want.alerts}
              disabled={alerts.isPending}
              onChange={(event) => alerts.mutate({ id: want.id, alerts: event.target.value as WantAlerts })}
              className="h-9 rounded-md border border-line bg-white px-2 text-sm text-ink shadow-sm"
            >
              {WANT_ALERTS.map((choice) => (
                <option key={choice} value={choice}>
                  {WANT_ALERT_LABELS[choice]}
                </option>
              ))}
            </select>
            <Button
              ref={editButton}
              variant="outline"
              size="sm"
              onClick={() => {
                conditions.reset();
                onEdit();
              }}
              data-testid="want-edit"
            >
              Edit<span className="sr-only"> conditions for {want.title}</span>
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ id: want.id })}
            >
              Remove<span className="sr-only"> {want.title}</span>
            </Button>
          </div>
        )}
      </div>
      {editing ? (
        <WantForm
          initial={{ conditions: want.conditions, alerts: want.alerts }}
          label={`Conditions for ${want.title}`}
          submitLabel="Save changes"
          busy={conditions.isPending}
          error={conditions.error ? apiErrorMessage(conditions.error) : null}
          focusFirst
          onSubmit={(value) => conditions.mutate({ id: want.id, ...value })}
          onCancel={() => onClose(want.id)}
        />
      ) : null}
    </li>
  );
}

/** /account/wants: each want with its target, conditions and alerts, and the copies on sale now. */
export function WantsPage() {
  usePageMeta('Wants');
  const list = trpc.community.wants.list.useQuery(undefined, { staleTime: 0 });
  // One want's conditions open at a time; the Edit button focus returns to when it closes.
  const [editing, setEditing] = useState<string | null>(null);
  const [focusEdit, setFocusEdit] = useState<string | null>(null);
  return (
    <div>
      <PageHeader
        title="Wants"
        description="The books you’re looking for. When a copy that meets a want is listed, we tell you in the app, and by email at once or once a day."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      />
      <PageBody>
        {list.isPending ? (
          <RowsSkeleton label="Loading your wants" rows={Array(3).fill('h-16 w-full rounded-xl')} />
        ) : list.isError ? (
          <QueryError what="your wants" onRetry={() => list.refetch()} retrying={list.isFetching} />
        ) : list.data.length === 0 ? (
          <div className="flex max-w-prose flex-col items-start gap-4" data-testid="wants-empty">
            <BookHeart aria-hidden="true" className="size-6 text-brand" />
            <p>
              No wants yet. A want is a book you’re looking for, not a copy: on a book’s page choose “Want
              this book” (any edition, or one edition, with conditions such as signed or a most you’d pay) and
              we’ll tell you when a copy is listed.
            </p>
            <p className="text-ink-soft">
              Your{' '}
              <Link to="/account/wishlist" className="underline">
                wishlist
              </Link>{' '}
              keeps copies already on sale, and your{' '}
              <Link to="/account/saved-searches" className="underline">
                saved searches
              </Link>{' '}
              keep a search to run again.
            </p>
          </div>
        ) : (
          <ul className="divide-y divide-line rounded-xl border border-line bg-paper" data-testid="wants">
            {list.data.map((want) => (
              <WantRow
                key={want.id}
                want={want}
                editing={editing === want.id}
                focusEdit={focusEdit === want.id}
                onEdit={() => {
                  setFocusEdit(null);
                  setEditing(want.id);
                }}
                onClose={(kept) => {
                  setEditing(null);
                  setFocusEdit(kept);
                }}
              />
            ))}
          </ul>
        )}
      </PageBody>
    </div>
  );
}
