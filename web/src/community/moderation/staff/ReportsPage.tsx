/**
 * /admin/reports (staff, moderators too): listings, messages, reviews, profiles and charities'
 * pages members reported. The open queue comes by kind of harm, fraud first (HARM_KINDS), each harm with how
 * many wait and oldest first within it, each report with how long it has waited, what it is
 * about, its reason and details, who reported it and how many open reports the same target has.
 * Filters (status, kind, harm) are kept in the address; the appeals queue is beside it
 * (/admin/appeals). Staff dismiss a report with a note, or act on it: remove the
 * listing (the seller is emailed the note as the reason) or remove the message from its thread
 * (optionally warning its sender). Acting closes every open report on the same target.
 */
import { countOf, HARM_KINDS, HARM_LABELS, type HarmKind, REPORT_TARGET_KINDS } from '@reshelf/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import {
  BookOpen,
  HeartHandshake,
  MessageSquareWarning,
  ShieldX,
  Star,
  UserRound,
  XCircle,
} from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { fieldClasses, Label, Textarea } from '../../../components/ui/input.tsx';
import { toast } from '../../../components/ui/use-toast.ts';
import { QueryView } from '../../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../../lib/api-errors.ts';
import { type RouterOutputs, trpc } from '../../../lib/trpc.ts';
import { cn } from '../../../lib/utils.ts';
import { StaffConversation } from '../../messages/StaffConversation.tsx';
import { useActOnReport, useDismissReport } from './hooks.ts';
import { waiting } from './waiting.ts';

type Report = RouterOutputs['community']['moderation']['staff']['list'][number];

const STATUSES = [
  ['open', 'Open'],
  ['actioned', 'Actioned'],
  ['dismissed', 'Dismissed'],
] as const;
const KINDS = [
  ['', 'Everything'],
  ['listing', 'Listings'],
  ['offer_message', 'Offer messages'],
  ['message', 'Conversation messages'],
  ['review', 'Reviews'],
  ['profile', 'Profiles'],
  ['charity', 'Charities’ pages'],
] as const;
type Status = (typeof STATUSES)[number][0];
type Kind = Exclude<(typeof KINDS)[number][0], ''>;

export function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const status: Status = STATUSES.some(([value]) => value === params.get('status'))
    ? (params.get('status') as Status)
    : 'open';
  const kindParam = params.get('kind');
  const kind = REPORT_TARGET_KINDS.find((value) => value === kindParam) as Kind | undefined;
  const harmParam = params.get('harm');
  const harm = HARM_KINDS.find((value) => value === harmParam);
  const reports = trpc.community.moderation.staff.list.useQuery(
    { status, ...(kind ? { kind } : {}), ...(harm ? { harm } : {}) },
    { placeholderData: keepPreviousData },
  );
  const byHarm = trpc.community.moderation.staff.byHarm.useQuery();
  const appeals = trpc.community.moderation.appeals.openCount.useQuery();

  function setFilter(key: 'status' | 'kind' | 'harm', value: string) {
    const next = new URLSearchParams(params);
    if (value && !(key === 'status' && value === 'open')) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  }

  return (
    <AdminPageFrame
      title="Reports"
      description="What members reported, by kind of harm (fraud first), oldest first within each. Dismiss a report with a note, or act on it: remove what was reported. Acting closes every open report on it; each reporter is told the outcome, and the member who posted it is told why and may appeal."
      testId="reports-page"
    >
      <nav aria-label="Open reports by kind of harm" className="flex flex-col gap-2">
        <ul className="flex flex-wrap gap-2" data-testid="harm-counts">
          {(byHarm.data ?? []).map((row) => (
            <li key={row.harm}>
              <button
                type="button"
                onClick={() => setFilter('harm', harm === row.harm ? '' : row.harm)}
                aria-pressed={harm === row.harm}
                data-harm={row.harm}
                className={cn(
                  'min-h-11 rounded-full border px-3 py-1 text-sm',
                  harm === row.harm ? 'border-brand bg-brand-soft text-brand' : 'border-line bg-paper',
                  row.open === 0 && 'text-ink-muted',
                )}
              >
                {row.label}: <span className="font-semibold">{row.open}</span>
                {row.oldestAt ? (
                  <span className="text-ink-muted"> · oldest {waiting(row.oldestAt)}</span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
        <p className="text-sm">
          <Link to="/admin/appeals" className="font-semibold text-brand underline-offset-2 hover:underline">
            Appeals against removals{appeals.data ? ` (${appeals.data.open} open)` : ''}
          </Link>
        </p>
      </nav>

      <div className="grid gap-3 rounded-xl border border-line bg-paper p-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="reports-status">Status</Label>
          <select
            id="reports-status"
            value={status}
            onChange={(event) => setFilter('status', event.target.value)}
            className={`${fieldClasses} h-11`}
          >
            {STATUSES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="reports-kind">Reported</Label>
          <select
            id="reports-kind"
            value={kind ?? ''}
            onChange={(event) => setFilter('kind', event.target.value)}
            className={`${fieldClasses} h-11`}
          >
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <QueryView
        query={reports}
        pending="Loading reports…"
        empty={
          <EmptyState testId="reports-empty">
            {status === 'open' ? 'No open reports: the queue is clear.' : `No ${status} reports.`}
          </EmptyState>
        }
      >
        {(data) => (
          <div className="flex flex-col gap-6" data-testid="reports" aria-busy={reports.isFetching}>
            {groupByHarm(data).map(([group, rows]) => (
              <section
                key={group}
                aria-labelledby={`harm-${group}`}
                data-testid="harm-group"
                data-harm={group}
              >
                <h2 id={`harm-${group}`} className="mb-2 text-lg font-semibold">
                  {HARM_LABELS[group]} ({rows.length})
                </h2>
                <ul className="flex flex-col gap-3">
                  {rows.map((report) => (
                    <ReportRow key={report.id} report={report} />
                  ))}
                </ul>
              </section>
            ))}
          </div>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

/** Reports in their groups by harm, in the order the server sent them (HARM_KINDS' order when open). */
function groupByHarm(reports: Report[]): [HarmKind, Report[]][] {
  const groups = new Map<HarmKind, Report[]>();
  for (const report of reports) groups.set(report.harm, [...(groups.get(report.harm) ?? []), report]);
  return [...groups];
}

function ReportRow({ report }: { report: Report }) {
  const [working, setWorking] = useState<'dismiss' | 'act' | null>(null);
  const what = KIND_WORD[report.kind];
  return (
    <li
      data-testid="report"
      data-kind={report.kind}
      data-status={report.status}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-line bg-paper p-4"
    >
      <div className="flex flex-wrap items-center gap-2 text-xs font-semibold">
        <span className="inline-flex items-center gap-1 rounded-full bg-brand-soft px-2 py-0.5 text-brand">
          {report.kind === 'listing' ? (
            <BookOpen className="size-3.5" aria-hidden="true" />
          ) : report.kind === 'review' ? (
            <Star className="size-3.5" aria-hidden="true" />
          ) : report.kind === 'profile' ? (
            <UserRound className="size-3.5" aria-hidden="true" />
          ) : report.kind === 'charity' ? (
            <HeartHandshake className="size-3.5" aria-hidden="true" />
          ) : (
            <MessageSquareWarning className="size-3.5" aria-hidden="true" />
          )}
          {report.kind === 'listing'
            ? 'Listing'
            : report.kind === 'review'
              ? 'Review'
              : report.kind === 'profile'
                ? 'Profile'
                : report.kind === 'charity'
                  ? 'Charity’s page'
                  : 'Message'}
        </span>
        <span className="rounded-full bg-destructive/10 px-2 py-0.5 text-destructive" data-testid="harm">
          {report.harmLabel}
        </span>
        {report.status === 'open' ? (
          <span className="rounded-full bg-ink/10 px-2 py-0.5 text-ink" data-testid="waiting">
            {waiting(report.createdAt)}
          </span>
        ) : null}
        <span className="rounded-full bg-accent/25 px-2 py-0.5 text-accent-foreground">
          {report.reasonLabel}
        </span>
        {report.openOnTarget > 1 ? (
          <span
            className="rounded-full bg-destructive/10 px-2 py-0.5 text-destructive"
            data-testid="open-on-target"
          >
            {report.openOnTarget} open reports on this {what}
          </span>
        ) : null}
      </div>

      <Target report={report} />

      <div className="text-sm">
        <p className="text-ink-muted break-words">
          Reported by {report.reporter.name ?? 'a member'} ({report.reporter.email ?? 'no email'}) on{' '}
          {formatDateTime(report.createdAt)}
        </p>
        {report.details ? <p className="mt-1 break-words">“{report.details}”</p> : null}
      </div>

      {report.status !== 'open' ? (
        <p className="rounded-lg bg-paper-deep p-3 text-sm break-words" data-testid="resolution">
          <span className="font-semibold">{report.status === 'actioned' ? 'Actioned' : 'Dismissed'}</span>
          {report.resolvedByEmail ? ` by ${report.resolvedByEmail}` : ''}
          {report.resolvedAt ? ` on ${formatDateTime(report.resolvedAt)}` : ''}
          {report.resolutionNote ? `: ${report.resolutionNote}` : ''}
        </p>
      ) : working ? (
        <ResolveForm report={report} mode={working} onClose={() => setWorking(null)} />
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="destructive" size="sm" onClick={() => setWorking('act')}>
            <ShieldX aria-hidden="true" />
            {`Remove ${what}…`}
          </Button>
          <Button variant="outline" size="sm" onClick={() => setWorking('dismiss')}>
            <XCircle aria-hidden="true" />
            Dismiss…
          </Button>
        </div>
      )}
    </li>
  );
}

const KIND_WORD: Record<Report['kind'], string> = {
  listing: 'listing',
  offer_message: 'message',
  message: 'message',
  review: 'review',
  profile: 'profile bio and photo',
  charity: 'charity’s description and logo',
};

function Target({ report }: { report: Report }) {
  if (report.review) {
    const { review } = report;
    return (
      <div className="min-w-0">
        <p className="text-sm font-semibold">{review.stars} out of 5 stars</p>
        <blockquote className="border-l-2 border-line pl-3 break-words italic" data-testid="reported-review">
          “{review.text}”
        </blockquote>
        {review.reply ? <p className="mt-1 text-sm break-words">Reply: “{review.reply}”</p> : null}
        <p className="mt-1 text-sm text-ink-soft break-words">
          By {review.authorName ?? 'a member'} ({review.authorEmail ?? 'no email'}), of order{' '}
          {review.orderReference ?? '—'}
          {review.removed ? (
            <span className="ml-2 rounded bg-destructive/10 px-1.5 py-0.5 text-xs font-semibold text-destructive">
              Removed
            </span>
          ) : null}
        </p>
      </div>
    );
  }
  if (report.listing) {
    const { listing } = report;
    return (
      <div className="min-w-0">
        <p className="font-semibold break-words">
          {listing.slug ? (
            <Link to={`/listing/${listing.slug}`} className="hover:underline">
              {listing.title ?? listing.slug}
            </Link>
          ) : (
            (listing.title ?? 'Untitled listing')
          )}{' '}
          <span
            className={cn(
              'ml-1 rounded px-1.5 py-0.5 text-xs font-semibold',
              listing.status === 'removed'
                ? 'bg-destructive/10 text-destructive'
                : 'bg-ink/10 text-ink-muted',
            )}
          >
            {listing.status}
          </span>
        </p>
        <p className="text-sm text-ink-soft break-words">
          Seller: {listing.sellerName ?? 'Seller'} ({listing.sellerEmail ?? 'no email'})
        </p>
      </div>
    );
  }
  if (report.message) {
    const { message } = report;
    return (
      <div className="min-w-0">
        <blockquote className="border-l-2 border-line pl-3 break-words italic" data-testid="reported-message">
          “{message.text ?? ''}”
        </blockquote>
        <p className="mt-1 text-sm text-ink-soft break-words">
          From {message.senderName ?? 'a member'} ({message.senderEmail ?? 'no email'}), with an offer on{' '}
          {message.listingSlug ? (
            <Link to={`/listing/${message.listingSlug}`} className="hover:underline">
              {message.listingTitle ?? 'a listing'}
            </Link>
          ) : (
            (message.listingTitle ?? 'a listing')
          )}
          {message.hidden ? (
            <span className="ml-2 rounded bg-destructive/10 px-1.5 py-0.5 text-xs font-semibold text-destructive">
              Removed from the thread
            </span>
          ) : null}
        </p>
      </div>
    );
  }
  if (report.threadMessage) {
    const { threadMessage: message } = report;
    return (
      <div className="min-w-0">
        <blockquote className="border-l-2 border-line pl-3 break-words italic" data-testid="reported-message">
          “{message.text || (message.photos.length ? countOf(message.photos.length, 'photo', 'photos') : '')}”
        </blockquote>
        <p className="mt-1 text-sm text-ink-soft break-words">
          From {message.senderName ?? 'a member'} ({message.senderEmail ?? 'no email'}), in a conversation
          about{' '}
          {message.listingSlug ? (
            <Link to={`/listing/${message.listingSlug}`} className="hover:underline">
              {message.listingTitle ?? 'a listing'}
            </Link>
          ) : (
            (message.listingTitle ?? 'a listing')
          )}
          {message.hidden ? (
            <span className="ml-2 rounded bg-destructive/10 px-1.5 py-0.5 text-xs font-semibold text-destructive">
              Removed from the conversation
            </span>
          ) : null}
        </p>
        <StaffConversation through={{ threadId: message.threadId, reportId: report.id }} />
      </div>
    );
  }
  if (report.profile) {
    const { profile } = report;
    return (
      <div className="min-w-0" data-testid="reported-profile">
        <p className="font-semibold break-words">
          <Link to={`/seller/${profile.profileId}`} className="hover:underline">
            {profile.name ?? 'A member'}
          </Link>{' '}
          <span className="text-sm font-normal text-ink-soft">({profile.email ?? 'no email'})</span>
        </p>
        {profile.bio ? (
          <blockquote className="border-l-2 border-line pl-3 break-words italic">“{profile.bio}”</blockquote>
        ) : (
          <p className="text-sm text-ink-muted">No bio.</p>
        )}
        {profile.avatarUrl ? <p className="text-sm text-ink-soft">Has a profile photo.</p> : null}
      </div>
    );
  }
  if (report.charity) {
    const { charity } = report;
    return (
      <div className="min-w-0" data-testid="reported-charity">
        <p className="font-semibold break-words">
          <Link to={`/charity/${charity.slug}`} className="hover:underline">
            {charity.name}
          </Link>{' '}
          <span className="text-sm font-normal text-ink-soft">
            (owner {charity.ownerEmail ?? 'no email'})
          </span>
        </p>
        {charity.description ? (
          <blockquote className="border-l-2 border-line pl-3 break-words italic">
            “{charity.description}”
          </blockquote>
        ) : (
          <p className="text-sm text-ink-muted">No description.</p>
        )}
        {charity.logoUrl ? <p className="text-sm text-ink-soft">Has a logo.</p> : null}
      </div>
    );
  }
  return <p className="text-sm text-ink-muted">What was reported no longer exists.</p>;
}

function ResolveForm({
  report,
  mode,
  onClose,
}: {
  report: Report;
  mode: 'dismiss' | 'act';
  onClose: () => void;
}) {
  const id = useId();
  const [note, setNote] = useState('');
  const [warn, setWarn] = useState(false);
  const failed = (title: string) => (error: unknown) => {
    toast({ variant: 'destructive', title, description: apiErrorMessage(error) });
  };
  const dismiss = useDismissReport({
    onSuccess: () => {
      toast({ title: 'Report dismissed', description: 'Other reports on the same target stay open.' });
      onClose();
    },
    onError: failed('Report not dismissed'),
  });
  const act = useActOnReport({
    onSuccess: (result) => {
      const closed = `${countOf(result.closed, 'report', 'reports')} closed, reporters told`;
      toast(
        result.kind === 'listing'
          ? { title: 'Listing removed', description: `${closed}; the seller has been told the reason.` }
          : result.kind === 'review'
            ? {
                title: 'Review removed',
                description: `${closed}; both members have been emailed the reason.`,
              }
            : result.kind === 'profile'
              ? { title: 'Bio and photo taken down', description: `${closed}; the member has been told why.` }
              : result.kind === 'charity'
                ? {
                    title: 'Description and logo taken down',
                    description: `${closed}; the charity’s owner has been told why.`,
                  }
                : {
                    title: 'Message removed',
                    description: `${closed}; the thread now says “Message removed by Reshelf”.`,
                  },
      );
      onClose();
    },
    onError: failed(`${KIND_WORD[report.kind].replace(/^./, (c) => c.toUpperCase())} not removed`),
  });
  const pending = dismiss.isPending || act.isPending;
  const label =
    mode === 'dismiss'
      ? 'Why it needs no action (for the team; the reporter is told it stays up)'
      : report.kind === 'review'
        ? 'Reason (both members are told; its author may appeal)'
        : report.kind === 'charity'
          ? 'Reason (the charity’s owner is told, and may appeal)'
          : 'Reason (the member who posted it is told, and may appeal)';

  function submit(event: FormEvent) {
    event.preventDefault();
    if (mode === 'dismiss') dismiss.mutate({ reportId: report.id, note });
    else
      act.mutate({
        reportId: report.id,
        note,
        warnSender: (report.kind === 'message' || report.kind === 'offer_message') && warn,
      });
  }

  return (
    <form
      className="flex flex-col gap-3 rounded-lg border border-line bg-paper-deep/50 p-3"
      onSubmit={submit}
      aria-label={mode === 'dismiss' ? 'Dismiss the report' : `Remove the ${KIND_WORD[report.kind]}`}
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-note`}>{label}</Label>
        <Textarea
          id={`${id}-note`}
          value={note}
          maxLength={1000}
          className="min-h-20"
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      {mode === 'act' && (report.kind === 'message' || report.kind === 'offer_message') ? (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={warn}
            onChange={(event) => setWarn(event.target.checked)}
            className="size-4 accent-brand"
          />
          Warn the sender by email
        </label>
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button
          type="submit"
          size="sm"
          variant={mode === 'act' ? 'destructive' : 'default'}
          disabled={pending}
        >
          {mode === 'dismiss' ? 'Dismiss report' : `Remove ${KIND_WORD[report.kind]}`}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
