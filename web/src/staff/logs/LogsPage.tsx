/**
 * /admin/logs (staff): the shared basic dashboard, then two logs. Jobs (the default): each run
 * of the scheduled jobs (reservations lapsing, offers expiring, dispatch deadlines, deliveries
 * presumed, orders completed, payouts released, old request lines pruned) with when it started
 * and finished, how many it moved and its error; filter by job and to failed runs (kept in the
 * address); older runs 50 at a time. Requests (?log=requests): the structured request log
 * (RequestLogPanel.tsx).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { LinkTabs } from '../../components/LinkTabs.tsx';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { BasicDashboard } from '../../components/staff/BasicDashboard.tsx';
import { KeysetPager, useKeysetPages } from '../../components/staff/KeysetPager.tsx';
import { fieldClasses, Label } from '../../components/ui/input.tsx';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { trpc } from '../../lib/trpc.ts';
import { RequestLogPanel } from './RequestLogPanel.tsx';

export function LogsPage() {
  const [params] = useSearchParams();
  const view = params.get('log') === 'requests' ? 'requests' : 'jobs';
  return (
    <AdminPageFrame
      title="Logs"
      description="What the server did: every API request it answered, and every run of the scheduled jobs that move orders and offers on."
      testId="logs-page"
    >
      <BasicDashboard />
      <LinkTabs
        label="Logs"
        tabs={[
          { to: '/admin/logs', label: 'Jobs', current: view === 'jobs' },
          { to: '/admin/logs?log=requests', label: 'Requests', current: view === 'requests' },
        ]}
      />
      {view === 'requests' ? <RequestLogPanel /> : <JobRunsPanel />}
    </AdminPageFrame>
  );
}

function JobRunsPanel() {
  const [params, setParams] = useSearchParams();
  const job = params.get('job') ?? '';
  const errorsOnly = params.get('errors') === '1';
  const pages = useKeysetPages();
  const before = pages.before;
  const jobs = trpc.staff.jobLog.jobs.useQuery();
  const runs = trpc.staff.jobLog.runs.useQuery(
    { ...(job ? { job } : {}), errorsOnly, ...(before ? { before } : {}), limit: 50 },
    { placeholderData: keepPreviousData },
  );

  function update(key: string, value: string | null) {
    pages.reset();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  }

  return (
    <>
      <div className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4 sm:flex-row sm:items-end">
        <div className="flex flex-col gap-1 sm:w-72">
          <Label htmlFor="logs-job">Job</Label>
          <select
            id="logs-job"
            value={job}
            onChange={(event) => update('job', event.target.value || null)}
            className={`${fieldClasses} h-11`}
          >
            <option value="">All jobs</option>
            {(jobs.data ?? []).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <label className="flex h-11 items-center gap-2 text-sm font-semibold">
          <input
            type="checkbox"
            checked={errorsOnly}
            onChange={(event) => update('errors', event.target.checked ? '1' : null)}
            className="size-4"
          />
          Errors only
        </label>
      </div>

      <QueryView
        query={runs}
        pending="Loading runs…"
        empty={
          <EmptyState testId="logs-empty">
            {errorsOnly ? 'No failed runs.' : 'No runs yet: the job runner records each run here.'}
          </EmptyState>
        }
      >
        {(data) => (
          <TableScroll label="Job runs" className="rounded-xl border border-line bg-paper">
            <table className="w-full min-w-[40rem] text-left text-sm" aria-busy={runs.isFetching}>
              <caption className="sr-only">Job runs, newest first</caption>
              <thead className="border-b border-line text-ink-muted">
                <tr>
                  <th className="px-4 py-3 font-semibold">Job</th>
                  <th className="px-4 py-3 font-semibold">Started</th>
                  <th className="px-4 py-3 font-semibold">Finished</th>
                  <th className="px-4 py-3 text-right font-semibold">Moved</th>
                  <th className="px-4 py-3 font-semibold">Error</th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((row) => (
                  <tr
                    key={row.id}
                    className="border-b border-line/60 align-top last:border-0"
                    data-testid="job-run"
                    data-job={row.job}
                  >
                    <td className="px-4 py-3 font-mono text-xs">{row.job}</td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDateTime(row.startedAt)}</td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      {row.finishedAt ? formatDateTime(row.finishedAt) : 'Running'}
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{row.moved.toLocaleString('en-GB')}</td>
                    <td className="px-4 py-3 break-words text-destructive">{row.error ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
      <KeysetPager pages={pages} nextBefore={runs.data?.nextBefore} noun="runs" />
    </>
  );
}
