/**
 * /admin/logs?log=requests: the structured request log — every API request the BFF answered,
 * newest first, with its status, how long it took, who made it and its request id (the same id
 * as the server's log line and the x-request-id header). Filters live in the address; older
 * lines 50 at a time. Kept 14 days.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { EmptyState, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { KeysetPager, useKeysetPages } from '../../components/staff/KeysetPager.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClasses, Input, Label } from '../../components/ui/input.tsx';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';

const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type StatusClass = (typeof STATUS_CLASSES)[number];
type Method = (typeof METHODS)[number];

const FIELDS = ['status', 'method', 'path', 'id', 'user', 'slow'] as const;

function statusTone(status: number): string {
  if (status >= 500) return 'bg-destructive/10 text-destructive';
  if (status >= 400) return 'bg-accent/25 text-accent-foreground';
  return 'bg-moss-soft text-moss';
}

export function RequestLogPanel() {
  const [params, setParams] = useSearchParams();
  const pages = useKeysetPages();
  const read = (key: string) => params.get(key) ?? '';
  const slow = Number.parseInt(read('slow'), 10);
  const filter = {
    ...(STATUS_CLASSES.includes(read('status') as StatusClass)
      ? { status: read('status') as StatusClass }
      : {}),
    ...(METHODS.includes(read('method') as Method) ? { method: read('method') as Method } : {}),
    ...(read('path') ? { path: read('path') } : {}),
    ...(read('id') ? { requestId: read('id') } : {}),
    ...(read('user') ? { user: read('user') } : {}),
    ...(Number.isFinite(slow) && slow >= 0 ? { slowerThanMs: slow } : {}),
  };
  const before = pages.before;
  const lines = trpc.staff.requestLog.search.useQuery(
    { ...filter, ...(before ? { before } : {}), limit: 50 },
    { placeholderData: keepPreviousData },
  );

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    pages.reset();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of FIELDS) {
          const value = String(form.get(key) ?? '').trim();
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  }

  return (
    <section aria-label="Requests" className="flex flex-col gap-4" data-testid="request-log">
      <form
        onSubmit={apply}
        aria-label="Filter the requests"
        className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-2 lg:grid-cols-3"
        key={params.toString()}
      >
        <div className="flex flex-col gap-1">
          <Label htmlFor="requests-status">Status</Label>
          <select
            id="requests-status"
            name="status"
            defaultValue={read('status')}
            className={`${fieldClasses} h-11`}
          >
            <option value="">Any status</option>
            {STATUS_CLASSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="requests-method">Method</Label>
          <select
            id="requests-method"
            name="method"
            defaultValue={read('method')}
            className={`${fieldClasses} h-11`}
          >
            <option value="">Any method</option>
            {METHODS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="requests-path">Path or procedure</Label>
          <Input
            id="requests-path"
            name="path"
            defaultValue={read('path')}
            placeholder="/api/v1 or orders.get"
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="requests-user">Person</Label>
          <Input id="requests-user" name="user" defaultValue={read('user')} placeholder="Part of an email" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="requests-id">Request id</Label>
          <Input id="requests-id" name="id" defaultValue={read('id')} placeholder="From x-request-id" />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="requests-slow">Slower than (ms)</Label>
          <Input id="requests-slow" name="slow" type="number" min={0} defaultValue={read('slow')} />
        </div>
        <div className="sm:col-span-2 lg:col-span-3">
          <Button type="submit" variant="brand">
            <Search aria-hidden="true" />
            Search the requests
          </Button>
        </div>
      </form>

      <QueryView
        query={lines}
        pending="Loading requests…"
        empty={
          <EmptyState testId="requests-empty">No requests match. Lines are kept for 14 days.</EmptyState>
        }
      >
        {(data) => (
          <TableScroll label="Requests" className="rounded-xl border border-line bg-paper">
            <table className="w-full min-w-[48rem] text-left text-sm" aria-busy={lines.isFetching}>
              <caption className="sr-only">Requests, newest first</caption>
              <thead className="border-b border-line text-ink-muted">
                <tr>
                  <th className="px-4 py-3 font-semibold">When</th>
                  <th className="px-4 py-3 font-semibold">Request</th>
                  <th className="px-4 py-3 font-semibold">Status</th>
                  <th className="px-4 py-3 text-right font-semibold">Time</th>
                  <th className="px-4 py-3 font-semibold">Who</th>
                  <th className="px-4 py-3 font-semibold">Request id</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr
                    key={row.id}
                    className="border-b border-line/60 align-top last:border-0"
                    data-testid="request-line"
                    data-status={row.status}
                    data-path={row.path}
                  >
                    <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(row.at)}</td>
                    <td className="min-w-56 px-4 py-3 font-mono text-xs break-all">
                      <span className="font-semibold">{row.method}</span> {row.path}
                    </td>
                    <td className="px-4 py-3">
                      <span
                        className={cn(
                          'rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums',
                          statusTone(row.status),
                        )}
                      >
                        {row.status}
                      </span>
                    </td>
                    <td className="px-4 py-3 text-right whitespace-nowrap tabular-nums">
                      {row.durationMs.toLocaleString('en-GB')} ms
                    </td>
                    <td className="px-4 py-3 break-words">
                      {row.userEmail ?? <span className="text-ink-muted">—</span>}
                    </td>
                    <td className="px-4 py-3 font-mono text-xs break-all text-ink-muted">{row.requestId}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
      <KeysetPager pages={pages} nextBefore={lines.data?.nextBefore} noun="requests" />
    </section>
  );
}
