/**
 * /admin/staff-picks: the listings on the home page's "Staff picks" shelf and /staff-picks, in
 * this order. Find a listing on sale, add it with an optional note, move picks up and down,
 * edit a note, remove one. A pick that is no longer on sale is hidden from the public and
 * marked here.
 */
import { formatPence } from '@reshelf/contracts';
import { ArrowDown, ArrowUp, Plus, Search, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { AdminPageFrame, EmptyState } from '../../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Input, Label } from '../../../components/ui/input.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { trpc } from '../../../lib/trpc.ts';
import { useAddStaffPick, useRemoveStaffPick, useReorderStaffPicks, useSetStaffPickNote } from './hooks.ts';

const failed = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

export function StaffPicksPage() {
  const picks = trpc.catalogue.discovery.picks.list.useQuery();
  const reorder = useReorderStaffPicks({
    onError: failed('Order not saved'),
  });
  const remove = useRemoveStaffPick({
    onSuccess: () => toast({ title: 'Pick removed', description: 'It no longer shows on the home page.' }),
    onError: failed('Pick not removed'),
  });

  function move(index: number, by: -1 | 1) {
    const ids = (picks.data ?? []).map((pick) => pick.listingId);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate({ listingIds: ids });
  }

  return (
    <AdminPageFrame
      title="Staff picks"
      description="The books on the home page's Staff picks shelf and the /staff-picks page, in this order."
      testId="staff-picks-page"
      actions={
        <Button asChild variant="outline">
          <Link to="/staff-picks">See the public page</Link>
        </Button>
      }
    >
      <AddPick />
      <QueryView
        query={picks}
        pending="Loading picks…"
        empty={
          <EmptyState testId="staff-picks-empty">
            No staff picks yet: the home page's shelf is hidden until you add one.
          </EmptyState>
        }
      >
        {(data) => (
          <ol className="flex flex-col gap-2" data-testid="staff-picks" aria-busy={reorder.isPending}>
            {data.map((pick, index) => (
              <li
                key={pick.listingId}
                data-testid="staff-pick"
                className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4 sm:flex-row sm:items-center"
              >
                <span className="font-serif text-2xl font-semibold text-ink-muted tabular-nums">
                  {index + 1}
                </span>
                <div className="min-w-0 flex-1">
                  <p className="font-semibold">
                    {pick.slug ? (
                      <Link to={`/listing/${pick.slug}`} className="hover:underline">
                        {pick.title}
                      </Link>
                    ) : (
                      pick.title
                    )}
                    {pick.status !== 'active' ? (
                      <span className="ml-2 rounded bg-destructive/10 px-1.5 py-0.5 text-xs font-semibold text-destructive">
                        {pick.status}: hidden from the public
                      </span>
                    ) : null}
                  </p>
                  <p className="text-sm text-ink-muted">
                    {pick.authors.join(', ')} ·{' '}
                    {pick.priceMinor === null ? '—' : formatPence(pick.priceMinor)} · {pick.sellerName}
                  </p>
                  <PickNote listingId={pick.listingId} note={pick.note} />
                </div>
                <div className="flex gap-1">
                  <Button
                    size="icon"
                    variant="outline"
                    aria-label={`Move ${pick.title} up`}
                    disabled={index === 0 || reorder.isPending}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp aria-hidden="true" />
                  </Button>
                  <Button
                    size="icon"
                    variant="outline"
                    aria-label={`Move ${pick.title} down`}
                    disabled={index === data.length - 1 || reorder.isPending}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown aria-hidden="true" />
                  </Button>
                  <Button
                    size="icon"
                    variant="outline"
                    aria-label={`Remove ${pick.title}`}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate({ listingId: pick.listingId })}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
              </li>
            ))}
          </ol>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

function PickNote({ listingId, note }: { listingId: string; note: string | null }) {
  const [editing, setEditing] = useState(false);
  const form = useForm({ defaultValues: { note: note ?? '' } });
  const save = useSetStaffPickNote({
    onSuccess: () => setEditing(false),
    onError: failed('Note not saved'),
  });
  if (!editing) {
    return (
      <p className="mt-1 text-sm">
        {note ? <span className="italic">“{note}”</span> : <span className="text-ink-muted">No note</span>}{' '}
        <button
          type="button"
          className="cursor-pointer font-semibold text-brand hover:underline"
          onClick={() => {
            form.reset({ note: note ?? '' });
            setEditing(true);
          }}
        >
          Edit note
        </button>
      </p>
    );
  }
  return (
    <form
      className="mt-2 flex flex-col gap-2 sm:flex-row"
      onSubmit={form.handleSubmit((values) => save.mutate({ listingId, note: values.note }))}
    >
      <Input aria-label="Note" maxLength={280} {...form.register('note')} />
      <div className="flex gap-2">
        <Button type="submit" disabled={save.isPending}>
          Save
        </Button>
        <Button type="button" variant="ghost" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function AddPick() {
  const form = useForm({ defaultValues: { q: '', note: '' } });
  const [searched, setSearched] = useState('');
  const candidates = trpc.catalogue.discovery.picks.candidates.useQuery(
    { q: searched },
    { enabled: searched.length >= 2 },
  );
  const add = useAddStaffPick({
    onSuccess: () => {
      toast({ title: 'Pick added', description: 'It shows on the home page now.' });
      form.setValue('note', '');
    },
    onError: failed('Pick not added'),
  });
  return (
    <section className="rounded-xl border border-line bg-paper p-4" aria-labelledby="add-pick-title">
      <h2 id="add-pick-title" className="text-lg font-semibold">
        Add a pick
      </h2>
      <form
        className="mt-3 grid gap-3 sm:grid-cols-[2fr_2fr_auto] sm:items-end"
        onSubmit={form.handleSubmit(({ q }) => setSearched(q.trim()))}
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="pick-search">Listing on sale</Label>
          <Input id="pick-search" {...form.register('q')} placeholder="Title or author" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="pick-note">Note (optional)</Label>
          <Input id="pick-note" maxLength={280} {...form.register('note')} placeholder="Why staff love it" />
        </div>
        <Button type="submit" variant="outline">
          <Search aria-hidden="true" />
          Find
        </Button>
      </form>
      {searched.length >= 2 ? (
        <QueryView
          query={candidates}
          pending={<p className="mt-3 text-sm text-ink-muted">Searching…</p>}
          error={(message) => <p className="mt-3 text-sm text-destructive">{message}</p>}
          empty={
            <p className="mt-3 text-sm text-ink-muted" data-testid="pick-candidates-empty">
              No listing on sale matches “{searched}” (picks already chosen are left out).
            </p>
          }
        >
          {(data) => (
            <ul className="mt-3 flex flex-col divide-y divide-line" data-testid="pick-candidates">
              {data.map((candidate) => (
                <li
                  key={candidate.listingId}
                  className="flex items-center justify-between gap-3 py-2"
                  data-testid="pick-candidate"
                >
                  <span className="min-w-0">
                    <span className="font-semibold">{candidate.title}</span>{' '}
                    <span className="text-sm text-ink-muted">
                      {candidate.authors.join(', ')} ·{' '}
                      {candidate.priceMinor === null ? '—' : formatPence(candidate.priceMinor)} ·{' '}
                      {candidate.sellerName}
                    </span>
                  </span>
                  <Button
                    size="sm"
                    onClick={() =>
                      add.mutate({ listingId: candidate.listingId, note: form.getValues('note') })
                    }
                    disabled={add.isPending}
                  >
                    <Plus aria-hidden="true" />
                    Add
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </QueryView>
      ) : null}
    </section>
  );
}
