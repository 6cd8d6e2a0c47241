/**
 * /admin/launch-plan: the checklist staff work through before and around launch. Add an item
 * with an owner, tick it off (who and when are kept), untick it, move it up or down, remove it.
 */
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import {
  useAddLaunchItem,
  useRemoveLaunchItem,
  useReorderLaunchPlan,
  useSetLaunchItemDone,
} from './hooks.ts';

const failed = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

export function LaunchPlanPage() {
  const items = trpc.staff.launchPlan.list.useQuery();
  const setDone = useSetLaunchItemDone({
    onError: failed('Item not updated'),
  });
  const reorder = useReorderLaunchPlan({
    onError: failed('Order not saved'),
  });
  const remove = useRemoveLaunchItem({
    onSuccess: () => toast({ title: 'Item removed' }),
    onError: failed('Item not removed'),
  });
  const busy = setDone.isPending || reorder.isPending || remove.isPending;

  function move(index: number, by: -1 | 1) {
    const ids = (items.data ?? []).map((item) => item.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    reorder.mutate({ ids });
  }

  const doneCount = items.data?.filter((item) => item.doneAt).length ?? 0;

  return (
    <AdminPageFrame
      title="Launch plan"
      description="The checklist staff tick off before and around launch, in order, with who owns each item."
      testId="launch-plan-page"
    >
      <AddItem />
      <QueryView
        query={items}
        pending="Loading the plan…"
        empty={
          <EmptyState testId="launch-plan-empty">
            Nothing on the launch plan yet: add the first item above.
          </EmptyState>
        }
      >
        {(data) => (
          <section className="flex flex-col gap-3" aria-labelledby="launch-plan-progress">
            <p id="launch-plan-progress" className="text-sm font-semibold" data-testid="launch-plan-progress">
              {doneCount} of {data.length} done
            </p>
            <ol className="flex flex-col gap-2" data-testid="launch-plan" aria-busy={busy}>
              {data.map((item, index) => (
                <li
                  key={item.id}
                  data-testid="launch-plan-item"
                  data-done={item.doneAt ? 'true' : 'false'}
                  className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4 sm:flex-row sm:items-center"
                >
                  <label className="flex min-w-0 flex-1 cursor-pointer items-start gap-3">
                    <input
                      type="checkbox"
                      className="mt-1 size-5 shrink-0"
                      checked={item.doneAt !== null}
                      disabled={busy}
                      onChange={(event) => setDone.mutate({ id: item.id, done: event.target.checked })}
                    />
                    <span className="min-w-0">
                      <span
                        className={
                          item.doneAt ? 'font-semibold text-ink-muted line-through' : 'font-semibold'
                        }
                      >
                        {item.title}
                      </span>
                      <span className="block text-sm text-ink-muted">
                        {item.owner ? `Owner: ${item.owner}` : 'No owner yet'}
                        {item.doneAt
                          ? ` · Done by ${item.doneBy ?? 'a former staff member'} on ${formatDateTime(item.doneAt)}`
                          : null}
                      </span>
                    </span>
                  </label>
                  <div className="flex gap-1">
                    <Button
                      size="icon"
                      variant="outline"
                      aria-label={`Move ${item.title} up`}
                      disabled={index === 0 || busy}
                      onClick={() => move(index, -1)}
                    >
                      <ArrowUp aria-hidden="true" />
                    </Button>
                    <Button
                      size="icon"
                      variant="outline"
                      aria-label={`Move ${item.title} down`}
                      disabled={index === data.length - 1 || busy}
                      onClick={() => move(index, 1)}
                    >
                      <ArrowDown aria-hidden="true" />
                    </Button>
                    <Button
                      size="icon"
                      variant="outline"
                      aria-label={`Remove ${item.title}`}
                      disabled={busy}
                      onClick={() => remove.mutate({ id: item.id })}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                </li>
              ))}
            </ol>
          </section>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

function AddItem() {
  const form = useForm({ defaultValues: { title: '', owner: '' } });
  const add = useAddLaunchItem({
    onSuccess: () => {
      toast({ title: 'Item added' });
      form.reset();
    },
    onError: failed('Item not added'),
  });
  return (
    <section className="rounded-xl border border-line bg-paper p-4" aria-labelledby="add-item-title">
      <h2 id="add-item-title" className="text-lg font-semibold">
        Add an item
      </h2>
      <form
        className="mt-3 grid gap-3 sm:grid-cols-[3fr_2fr_auto] sm:items-end"
        onSubmit={form.handleSubmit((values) => add.mutate(values))}
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="launch-item-title">What needs doing</Label>
          <Input id="launch-item-title" required maxLength={200} {...form.register('title')} />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="launch-item-owner">Owner (optional)</Label>
          <Input id="launch-item-owner" maxLength={80} {...form.register('owner')} />
        </div>
        <Button type="submit" disabled={add.isPending}>
          <Plus aria-hidden="true" />
          Add
        </Button>
      </form>
    </section>
  );
}
