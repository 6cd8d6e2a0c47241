/**
 * /admin/audit: every staff action with who did it, what and when. Search any text, or filter
 * by actor, action and dates; newest first, 50 at a time.
 */
import { auditDetailLines } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { KeysetPager, useKeysetPages } from '../../components/staff/KeysetPager.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClasses, Input, Label } from '../../components/ui/input.tsx';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { useFilterParams } from '../../kit/useFilterParams.ts';
import { trpc } from '../../lib/trpc.ts';

const filterSchema = z.object({
  q: z.string().default(''),
  actor: z.string().default(''),
  action: z.string().default(''),
  from: z.string().default(''),
  to: z.string().default(''),
});
type Filter = keyof z.output<typeof filterSchema>;
const NO_FILTER = { q: '', actor: '', action: '', from: '', to: '' };

export function AuditPage() {
  const filters = useFilterParams(filterSchema);
  const filter = filters.values;
  const form = useForm({ values: filter });
  const pages = useKeysetPages();
  const before = pages.before;
  const input = {
    ...Object.fromEntries(Object.entries(filter).filter(([, value]) => value)),
    ...(before ? { before } : {}),
    limit: 50,
  };
  const log = trpc.staff.audit.search.useQuery(input, { placeholderData: keepPreviousData });
  const actions = trpc.staff.audit.actions.useQuery();

  const apply = form.handleSubmit((draft) => {
    pages.reset();
    filters.set(Object.fromEntries(Object.entries(draft).map(([key, value]) => [key, value.trim()])));
  });

  const field = (key: Filter) => ({ id: `audit-${key}`, ...form.register(key) });

  return (
    <AdminPageFrame
      title="Audit log"
      description="Every staff action, with who did it and when. Entries are never changed or removed."
      testId="audit-page"
    >
      <form
        onSubmit={apply}
        className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-2 lg:grid-cols-6"
      >
        <div className="flex flex-col gap-1 lg:col-span-2">
          <Label htmlFor="audit-q">Search</Label>
          <Input {...field('q')} placeholder="Order reference, listing, reason…" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="audit-actor">Staff member</Label>
          <Input {...field('actor')} placeholder="Email" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="audit-action">Action</Label>
          <select {...field('action')} className={`${fieldClasses} h-11`}>
            <option value="">Any action</option>
            {(actions.data ?? []).map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="audit-from">From</Label>
          <Input {...field('from')} type="date" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="audit-to">To</Label>
          <Input {...field('to')} type="date" />
        </div>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-6">
          <Button type="submit">
            <Search aria-hidden="true" />
            Search the log
          </Button>
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              form.reset(NO_FILTER);
              pages.reset();
              filters.reset();
            }}
          >
            Clear filters
          </Button>
        </div>
      </form>

      <QueryView
        query={log}
        pending="Loading the log…"
        empty={<EmptyState testId="audit-empty">No entries match these filters.</EmptyState>}
      >
        {(data) => (
          <TableScroll label="Audit log" className="rounded-xl border border-line bg-paper">
            <table
              className="w-full min-w-[44rem] text-left text-sm"
              data-testid="audit-table"
              aria-busy={log.isFetching}
            >
              <thead className="border-b border-line text-ink-muted">
                <tr>
                  <th className="px-4 py-3 font-semibold">When</th>
                  <th className="px-4 py-3 font-semibold">Who</th>
                  <th className="px-4 py-3 font-semibold">Action</th>
                  <th className="px-4 py-3 font-semibold">Target</th>
                  <th className="px-4 py-3 font-semibold">Details</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr
                    key={row.id}
                    className="border-b border-line/60 align-top last:border-0"
                    data-testid="audit-row"
                    data-action={row.action}
                  >
                    <td className="px-4 py-3 whitespace-nowrap tabular-nums">
                      {formatDateTime(row.createdAt)}
                    </td>
                    <td className="px-4 py-3" data-testid="audit-who">
                      <Who row={row} />
                    </td>
                    <td className="px-4 py-3 font-mono text-xs">{row.action}</td>
                    <td className="px-4 py-3 text-xs break-all">
                      {row.targetType ? `${row.targetType} ${row.targetId ?? ''}` : '—'}
                    </td>
                    <td className="px-4 py-3">
                      <DetailList details={row.details} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
      <KeysetPager pages={pages} nextBefore={log.data?.nextBefore} noun="entries" />
    </AdminPageFrame>
  );
}

/** Who did it, by name and email; a gone account's id only as a last resort, said as such. */
function Who({
  row,
}: {
  row: { actorId: string | null; actorName: string | null; actorEmail: string | null };
}) {
  if (!row.actorId) return <>Reshelf (automatic)</>;
  if (!row.actorName && !row.actorEmail) return <span className="text-ink-muted">A closed account</span>;
  return (
    <>
      <span className="block font-medium">{row.actorName ?? row.actorEmail}</span>
      {row.actorName && row.actorEmail ? (
        <span className="block text-xs break-all text-ink-muted">{row.actorEmail}</span>
      ) : null}
    </>
  );
}

/** The details in words and pounds, through the one formatter (auditDetailLines). */
function DetailList({ details }: { details: Record<string, unknown> }) {
  const lines = auditDetailLines(details);
  if (lines.length === 0) return <span className="text-ink-muted">—</span>;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs" data-testid="audit-details">
      {lines.map((line, index) => (
        // Two keys may read alike ("amountMinor" and "amount"): the position keeps them apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: the details are recorded once and never reordered
        <div key={index} className="contents">
          <dt className="text-ink-muted">{line.label}</dt>
          <dd className="break-words">{line.value}</dd>
        </div>
      ))}
    </dl>
  );
}
