import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, Inbox, Loader2, RotateCw, Search, X } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { linkify } from './linkify.tsx';

type MailboxMessage = {
  id: string;
  to: string;
  subject: string;
  template: string;
  text: string;
  html: string | null;
  status: string;
  createdAt: string;
};

/** Shown beside a message the sender has not delivered (yet). */
const STATUS_NOTE: Record<string, string> = {
  queued: 'queued',
  sending: 'sending',
  failed: 'not delivered',
  suppressed: 'not sent: unsubscribed',
};

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date);
}

/**
 * /dev/mailbox, development only: the emails the app has "sent" (stored, never delivered), newest
 * first, filtered by address; open one to read it and follow its links. In production the API
 * answers NOT_FOUND and so does this page.
 */
export function DevMailboxPage() {
  const [params, setParams] = useSearchParams();
  const to = params.get('to')?.trim() ?? '';
  const selectedId = params.get('message');
  const mailbox = trpc.platform.dev.mailbox.useQuery(to ? { to } : {}, {
    staleTime: 0,
    refetchOnWindowFocus: true,
  });
  const notFound = mailbox.isError && apiErrorCode(mailbox.error) === 'NOT_FOUND';
  usePageMeta(notFound ? 'Page not found' : 'Dev mailbox');

  if (notFound) return <NotFoundContent />;

  const messages = mailbox.data ?? [];
  const selected = messages.find((message) => message.id === selectedId) ?? null;

  const hrefFor = (messageId: string | null) => {
    const search = new URLSearchParams();
    if (to) search.set('to', to);
    if (messageId) search.set('message', messageId);
    const query = search.toString();
    return `/dev/mailbox${query ? `?${query}` : ''}`;
  };

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 md:py-12 lg:px-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-accent/25 px-3 py-1 text-xs font-semibold uppercase tracking-wider text-accent-foreground">
            Development only
          </p>
          <h1 className="mt-3 text-3xl font-semibold sm:text-4xl">Dev mailbox</h1>
          <p className="mt-2 max-w-2xl text-ink-muted">
            Emails the app has sent here, newest first. Nothing is delivered to a real inbox.
          </p>
        </div>
        <Button variant="outline" onClick={() => mailbox.refetch()} disabled={mailbox.isFetching}>
          {mailbox.isFetching ? (
            <Loader2 aria-hidden="true" className="motion-safe:animate-spin" />
          ) : (
            <RotateCw aria-hidden="true" />
          )}
          Refresh
        </Button>
      </div>

      <FilterForm
        key={to}
        initial={to}
        onFilter={(value) => setParams(value ? { to: value } : {}, { replace: true })}
      />

      {mailbox.isError ? (
        <Alert tone="error" className="mt-6">
          {apiErrorMessage(mailbox.error)}
        </Alert>
      ) : null}

      <div className="mt-6 grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <section aria-label="Emails" className={cn(selected && 'max-md:hidden')}>
          {mailbox.isPending ? (
            <div role="status" aria-busy="true" aria-label="Loading emails" className="flex flex-col gap-2">
              <Skeleton className="h-20 rounded-lg" />
              <Skeleton className="h-20 rounded-lg" />
              <Skeleton className="h-20 rounded-lg" />
            </div>
          ) : messages.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-line p-8 text-center text-ink-muted">
              <Inbox aria-hidden="true" className="size-6" />
              <p>{to ? `No emails to addresses matching “${to}”.` : 'No emails yet.'}</p>
            </div>
          ) : (
            <ul className="flex flex-col gap-2" data-testid="mailbox-list">
              {messages.map((message) => (
                <li key={message.id}>
                  <Link
                    to={hrefFor(message.id)}
                    aria-current={message.id === selected?.id ? 'true' : undefined}
                    data-testid="mailbox-item"
                    className="block rounded-lg border border-line bg-paper px-4 py-3 shadow-card transition-colors hover:border-ink/30 aria-[current=true]:border-brand aria-[current=true]:bg-brand-soft/50"
                  >
                    <span className="flex items-baseline justify-between gap-2">
                      <span className="min-w-0 truncate font-semibold text-ink">{message.subject}</span>
                      {STATUS_NOTE[message.status] ? (
                        <span
                          data-testid="mailbox-status"
                          className="shrink-0 rounded-full bg-accent/25 px-2 py-0.5 text-xs font-semibold text-accent-foreground"
                        >
                          {STATUS_NOTE[message.status]}
                        </span>
                      ) : null}
                    </span>
                    <span className="mt-0.5 flex flex-wrap justify-between gap-x-3 text-sm text-ink-muted">
                      <span className="min-w-0 truncate">{message.to}</span>
                      <time dateTime={message.createdAt} className="shrink-0">
                        {formatTime(message.createdAt)}
                      </time>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-label="Email" className={cn(!selected && 'max-md:hidden')}>
          {selected ? (
            <MessageView message={selected} backHref={hrefFor(null)} />
          ) : (
            <div className="flex h-full min-h-48 items-center justify-center rounded-xl border border-dashed border-line p-8 text-center text-ink-muted">
              {selectedId && mailbox.isSuccess
                ? 'That email is not in this list.'
                : 'Choose an email to read it.'}
            </div>
          )}
        </section>
      </div>
    </div>
  );
}

const filterSchema = z.object({ to: z.string().trim().max(320, 'Use at most 320 characters') });

function FilterForm({ initial, onFilter }: { initial: string; onFilter: (to: string) => void }) {
  const form = useForm<z.input<typeof filterSchema>, unknown, z.output<typeof filterSchema>>({
    resolver: zodResolver(filterSchema),
    defaultValues: { to: initial },
  });
  const onSubmit = form.handleSubmit(({ to }) => onFilter(to));
  const error = form.formState.errors.to?.message;
  return (
    <search className="mt-6 block">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-1.5">
        <Label htmlFor="mailbox-filter">Filter by address</Label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id="mailbox-filter"
            type="search"
            placeholder="e.g. jo@example.com"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={Boolean(error)}
            className="sm:max-w-md"
            {...form.register('to')}
          />
          <div className="flex gap-2">
            <Button type="submit" variant="secondary" className="h-11 flex-1 sm:flex-none">
              <Search aria-hidden="true" />
              Filter
            </Button>
            {initial ? (
              <Button type="button" variant="ghost" className="h-11" onClick={() => onFilter('')}>
                <X aria-hidden="true" />
                Show all
              </Button>
            ) : null}
          </div>
        </div>
        {error ? <p className="text-sm font-medium text-destructive">{error}</p> : null}
      </form>
    </search>
  );
}

/** Links in the HTML version open in a new tab rather than inside the frame. */
function withLinksInNewTab(html: string): string {
  const base = '<base target="_blank">';
  if (/<head[^>]*>/i.test(html)) return html.replace(/<head[^>]*>/i, (head) => `${head}${base}`);
  if (/<html[^>]*>/i.test(html)) return html.replace(/<html[^>]*>/i, (tag) => `${tag}<head>${base}</head>`);
  return `${base}${html}`;
}

function MessageView({ message, backHref }: { message: MailboxMessage; backHref: string }) {
  const [showHtml, setShowHtml] = useState(false);
  return (
    <article
      className="rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6"
      data-testid="mailbox-message"
      aria-labelledby="mailbox-subject"
    >
      <Link
        to={backHref}
        className="mb-4 inline-flex items-center gap-1 text-sm font-semibold text-brand underline-offset-4 hover:underline md:hidden"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All emails
      </Link>
      <h2 id="mailbox-subject" className="text-2xl font-semibold">
        {message.subject}
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="font-semibold text-ink">To</dt>
        <dd className="break-all text-ink-soft">{message.to}</dd>
        <dt className="font-semibold text-ink">Sent</dt>
        <dd className="text-ink-soft">
          <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
        </dd>
        <dt className="font-semibold text-ink">Template</dt>
        <dd className="font-mono text-xs leading-5 text-ink-soft">{message.template}</dd>
      </dl>
      <div className="mt-5 border-t border-line pt-5">
        {showHtml && message.html ? (
          <iframe
            title={`HTML version of “${message.subject}”`}
            // No scripts; links open in a new tab, outside the sandbox.
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={withLinksInNewTab(message.html)}
            className="h-[32rem] w-full rounded-lg border border-line bg-white"
          />
        ) : (
          <div className="whitespace-pre-wrap break-words text-ink-soft" data-testid="mailbox-body">
            {linkify(message.text)}
          </div>
        )}
        {message.html ? (
          <button
            type="button"
            onClick={() => setShowHtml((value) => !value)}
            className="mt-4 text-sm font-semibold text-brand underline-offset-4 hover:underline"
          >
            {showHtml ? 'Show the plain text' : 'Show the formatted version'}
          </button>
        ) : null}
      </div>
    </article>
  );
}
