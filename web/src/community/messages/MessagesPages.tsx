/**
 * /messages: the member's conversations, newest first, with unread counts and a search by book
 * or name. /messages/:threadId: one conversation, with the book, its price and status and the
 * order's state at the top, offers and order events as system lines among the messages, photos,
 * read receipts, block and report, and a warning when a message suggests paying off Reshelf.
 * Both update live through the header's subscription (MessagesLink.tsx).
 */

import type { AppRouter } from '@reshelf/api/router';
import {
  countOf,
  formatPence,
  MESSAGE_LIMITS,
  MESSAGE_PHOTO_PATH,
  MESSAGE_TEXTS,
  SELLING_MESSAGES,
  SHOWN_PRICE_WORDS,
} from '@reshelf/contracts';
import type { inferRouterOutputs } from '@trpc/server';
import {
  Ban,
  Check,
  CheckCheck,
  Flag,
  ImagePlus,
  Loader2,
  MessageCircle,
  Search,
  Send,
  ShieldAlert,
  X,
} from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { NotFoundContent } from '../../components/not-found/NotFoundContent.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Textarea } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatWhen } from '../../lib/dates.ts';
import { isNotFound } from '../../lib/errors.ts';
import { mediaUrl, thumbUrl } from '../../lib/media.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { isRouteId } from '../../lib/route-ids.ts';
import { useStickyBar } from '../../lib/sticky-bar.ts';
import { trpc } from '../../lib/trpc.ts';
import { checkPhotoFile, UploadError, uploadFile } from '../../lib/upload.ts';
import { cn } from '../../lib/utils.ts';
import { ReportDialog } from '../moderation/ReportDialog.tsx';

const LISTING_STATUS: Record<string, string> = {
  active: 'For sale',
  reserved: 'Reserved',
  sold: 'Sold',
  withdrawn: 'No longer for sale',
  removed: 'Removed',
  draft: 'Not listed',
};

function Thumb({ url, title, className }: { url: string | null; title: string; className?: string }) {
  return url ? (
    <img
      src={thumbUrl(url)}
      alt=""
      className={cn('aspect-[3/4] w-12 shrink-0 rounded-md bg-paper-deep object-cover', className)}
    />
  ) : (
    <span
      aria-hidden="true"
      title={title}
      className={cn('grid aspect-[3/4] w-12 shrink-0 place-items-center rounded-md bg-paper-deep', className)}
    >
      <MessageCircle className="size-4 text-ink-muted" />
    </span>
  );
}

// The inbox ----------------------------------------------------------------------------------------

export function MessagesPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  const threads = trpc.community.messages.member.threads.useQuery(q ? { q } : {}, {
    staleTime: 0,
    placeholderData: (p) => p,
  });
  const unread = trpc.community.messages.member.unread.useQuery(undefined, { staleTime: 15_000 });
  usePageMeta('Messages');

  // Search as the member types, a moment after they stop.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (text.trim() === q) return;
      setParams(text.trim() ? { q: text.trim() } : {}, { replace: true });
    }, 300);
    return () => clearTimeout(timer);
  }, [text, q, setParams]);

  const unreadThreads = unread.data?.threads ?? 0;
  return (
    <div>
      <PageHeader
        title="Messages"
        description={
          unreadThreads
            ? `${countOf(unreadThreads, 'conversation', 'conversations')} with unread messages.`
            : 'Questions about books, and conversations about your orders.'
        }
        crumbs={[{ to: '/account', label: 'Your account' }]}
      />
      <PageBody>
        <div className="max-w-3xl">
          <search className="relative block">
            <label htmlFor="messages-search" className="sr-only">
              Search by book or name
            </label>
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-ink-muted"
            />
            <Input
              id="messages-search"
              type="search"
              value={text}
              maxLength={MESSAGE_LIMITS.maxSearch}
              onChange={(event) => setText(event.target.value)}
              placeholder="Search by book or name"
              className="pl-9"
              data-testid="messages-search"
            />
          </search>
          <div className="mt-4">
            {threads.isPending ? (
              <div
                role="status"
                aria-busy="true"
                aria-label="Loading your messages"
                className="flex flex-col gap-3"
              >
                {[0, 1, 2].map((key) => (
                  <Skeleton key={key} className="h-20 w-full rounded-xl" />
                ))}
              </div>
            ) : threads.isError ? (
              <QueryError
                what="your messages"
                onRetry={() => threads.refetch()}
                retrying={threads.isFetching}
              />
            ) : threads.data.length === 0 ? (
              <div
                className="flex flex-col items-start gap-4 rounded-xl border border-dashed border-line p-6 text-ink-muted"
                data-testid="messages-empty"
              >
                <MessageCircle aria-hidden="true" className="size-6 text-brand" />
                {q ? (
                  <p>No conversations match “{q}”.</p>
                ) : (
                  <p>
                    No messages yet. To ask a seller about a book, use “Message the seller” on its page; your
                    orders have a “Message” button too.
                  </p>
                )}
                {q ? null : (
                  <Button asChild variant="brand">
                    <Link to="/listings">Browse books</Link>
                  </Button>
                )}
              </div>
            ) : (
              <ul
                className="flex flex-col divide-y divide-line rounded-xl border border-line bg-paper"
                data-testid="threads"
              >
                {threads.data.map((thread) => (
                  <li key={thread.id}>
                    <Link
                      to={`/messages/${thread.id}`}
                      data-testid="thread-row"
                      data-unread={thread.unread}
                      className="flex items-center gap-3 p-3 transition-colors hover:bg-paper-deep/60 sm:p-4"
                    >
                      <Thumb url={thread.listing.imageUrl} title={thread.listing.title} />
                      <div className="min-w-0 flex-1">
                        <p className="flex items-baseline justify-between gap-2">
                          <span
                            className={cn('truncate', thread.unread ? 'font-bold text-ink' : 'font-semibold')}
                          >
                            {thread.counterpartName}
                          </span>
                          {thread.lastMessage ? (
                            <span className="shrink-0 text-xs text-ink-muted">
                              {formatWhen(thread.lastMessage.at)}
                            </span>
                          ) : null}
                        </p>
                        <p className="truncate text-sm text-ink-muted">{thread.listing.title}</p>
                        {thread.lastMessage ? (
                          <p
                            className={cn(
                              'truncate text-sm',
                              thread.unread ? 'font-medium text-ink' : 'text-ink-soft',
                            )}
                          >
                            {thread.lastMessage.fromMe ? 'You: ' : ''}
                            {thread.lastMessage.text}
                          </p>
                        ) : null}
                      </div>
                      {thread.unread ? (
                        <span className="grid h-6 min-w-6 shrink-0 place-items-center rounded-full bg-brand px-1.5 text-xs font-bold text-brand-foreground">
                          {thread.unread}
                          <span className="sr-only"> unread</span>
                        </span>
                      ) : null}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      </PageBody>
    </div>
  );
}

// One conversation -----------------------------------------------------------------------------------

export function ThreadPage() {
  const { threadId = '' } = useParams();
  const valid = isRouteId(threadId);
  const thread = trpc.community.messages.member.thread.useQuery(
    { threadId },
    { enabled: valid, staleTime: 0, retry: (count, error) => !isNotFound(error) && count < 1 },
  );
  const utils = trpc.useUtils();
  const markRead = trpc.community.messages.member.markRead.useMutation({
    onSuccess: ({ marked }) => {
      if (!marked) return;
      void utils.community.messages.member.unread.invalidate();
      void utils.community.messages.member.threads.invalidate();
      void utils.community.messages.member.thread.invalidate({ threadId });
    },
  });
  usePageMeta(thread.data ? `${thread.data.counterpartName} · ${thread.data.listing.title}` : 'Messages');

  // Whatever the other side sent is read once it is on screen (and the page is visible).
  const unreadFromThem = thread.data?.entries.some(
    (entry) => entry.kind === 'message' && entry.senderSide !== thread.data?.side && entry.readAt === null,
  );
  const { mutate: markReadNow, isPending: marking } = markRead;
  useEffect(() => {
    if (!unreadFromThem || marking) return;
    const mark = () => {
      if (document.visibilityState === 'visible') markReadNow({ threadId });
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [unreadFromThem, marking, markReadNow, threadId]);

  if (!valid) return <NotFoundContent />;
  if (thread.isPending) {
    return (
      <PageBody>
        <div
          role="status"
          aria-busy="true"
          aria-label="Loading the conversation"
          className="flex max-w-3xl flex-col gap-4"
        >
          <Skeleton className="h-24 w-full rounded-xl" />
          <Skeleton className="h-16 w-2/3 rounded-xl" />
          <Skeleton className="ml-auto h-16 w-2/3 rounded-xl" />
          <Skeleton className="h-28 w-full rounded-xl" />
        </div>
      </PageBody>
    );
  }
  if (thread.isError) {
    if (isNotFound(thread.error)) return <NotFoundContent />;
    return (
      <PageBody>
        <QueryError what="this conversation" onRetry={() => thread.refetch()} retrying={thread.isFetching} />
      </PageBody>
    );
  }
  return <Conversation view={thread.data} />;
}

type View = inferRouterOutputs<AppRouter>['community']['messages']['member']['thread'];
type Entry = View['entries'][number];

function Conversation({ view }: { view: View }) {
  const orderBase = view.side === 'buyer' ? '/account/orders' : '/account/sales';
  const end = useRef<HTMLDivElement>(null);
  const count = view.entries.length;
  useEffect(() => {
    if (count) end.current?.scrollIntoView({ block: 'end' });
  }, [count]);
  // The read receipt goes under my newest message.
  const lastMine = [...view.entries].reverse().find((entry) => ours(entry, view));
  return (
    <div data-testid="thread" data-thread-id={view.id}>
      <div className="border-b border-line bg-paper-deep/50">
        <div className="mx-auto w-full max-w-3xl px-4 py-4 sm:px-6">
          <Breadcrumbs className="mb-2" crumbs={[{ to: '/messages', label: 'Messages' }]} />
          <div className="flex items-start gap-3">
            <Thumb url={view.listing.imageUrl} title={view.listing.title} className="w-14" />
            <div className="min-w-0 flex-1">
              <h1 className="truncate text-xl font-semibold sm:text-2xl" data-testid="thread-counterpart">
                {view.counterpartName}
              </h1>
              <p className="truncate text-sm">
                {view.listing.slug && view.listing.status !== 'removed' ? (
                  <Link
                    to={`/listing/${view.listing.slug}`}
                    className="font-medium text-brand underline-offset-4 hover:underline"
                  >
                    {view.listing.title}
                  </Link>
                ) : (
                  <span className="font-medium">{view.listing.title}</span>
                )}
              </p>
              <p
                className="flex flex-wrap items-center gap-x-2 text-sm text-ink-muted"
                data-testid="thread-listing"
              >
                {view.side === 'buyer' && view.listing.allInMinor !== null ? (
                  <span className="font-semibold text-ink tabular-nums" data-testid="thread-price">
                    {formatPence(view.listing.allInMinor)}{' '}
                    <span className="font-normal text-ink-muted">{SHOWN_PRICE_WORDS.including}</span>
                  </span>
                ) : view.listing.priceMinor !== null ? (
                  <span className="font-semibold text-ink tabular-nums" data-testid="thread-price">
                    {formatPence(view.listing.priceMinor)}{' '}
                    <span className="font-normal text-ink-muted">your asking price</span>
                  </span>
                ) : null}
                <span>· {LISTING_STATUS[view.listing.status] ?? view.listing.status}</span>
              </p>
              {view.order ? (
                <p className="mt-1 text-sm" data-testid="thread-order">
                  <Link
                    to={`${orderBase}/${view.order.id}`}
                    className="font-medium text-brand underline-offset-4 hover:underline"
                  >
                    Order {view.order.reference}
                  </Link>{' '}
                  · <span className="font-medium">{view.order.statusLabel}</span>
                </p>
              ) : null}
            </div>
            <BlockButton view={view} />
          </div>
        </div>
      </div>
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-6 sm:px-6">
        {view.offPlatformWarning ? (
          <Alert
            tone="error"
            title="Keep payments on Reshelf"
            data-testid="off-platform-warning"
            live={false}
          >
            {MESSAGE_TEXTS.offPlatform}
          </Alert>
        ) : null}
        <ol className="flex flex-col gap-3" data-testid="thread-entries" aria-label="Messages">
          {view.entries.length === 0 ? (
            <li className="py-6 text-center text-sm text-ink-muted" data-testid="thread-empty">
              {view.side === 'buyer'
                ? `Ask ${view.counterpartName} about “${view.listing.title}”: the edition, the condition, postage.`
                : 'No messages yet.'}
            </li>
          ) : null}
          {view.entries.map((entry) => (
            <EntryItem key={entry.id} entry={entry} view={view} receipt={entry === lastMine} />
          ))}
        </ol>
        <div ref={end} />
        <Composer view={view} />
      </div>
    </div>
  );
}

/** Whether a message is from the viewer's side (a charity's team shares one side). */
function ours(entry: Entry, view: View): boolean {
  return entry.kind === 'message' && entry.senderSide === view.side;
}

function EntryItem({ entry, view, receipt }: { entry: Entry; view: View; receipt: boolean }) {
  if (entry.kind === 'system') {
    return (
      <li className="text-center text-xs text-ink-muted" data-testid="system-line">
        <span className="rounded-full bg-paper-deep px-3 py-1">{entry.text}</span>
        <span className="ml-2">{formatWhen(entry.at)}</span>
      </li>
    );
  }
  const mine = ours(entry, view);
  return (
    <li
      className={cn('flex flex-col gap-1', mine ? 'items-end' : 'items-start')}
      data-testid="message"
      data-from={mine ? 'me' : 'them'}
    >
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-4 py-2.5 sm:max-w-[75%]',
          mine ? 'rounded-br-sm bg-brand text-brand-foreground' : 'rounded-bl-sm border border-line bg-paper',
          entry.hidden && 'border border-dashed border-line bg-paper-deep text-ink-muted italic',
        )}
      >
        {entry.hidden ? (
          <p>Message removed by Reshelf</p>
        ) : (
          <>
            {entry.text ? (
              <p className="break-words whitespace-pre-wrap" data-testid="message-text">
                {entry.text}
              </p>
            ) : null}
            {entry.photos.length ? (
              <div
                className={cn('mt-1 grid gap-1.5', entry.photos.length > 1 ? 'grid-cols-2' : 'grid-cols-1')}
              >
                {entry.photos.map((photo) => (
                  <a key={photo} href={mediaUrl(photo)} target="_blank" rel="noreferrer">
                    <img
                      src={thumbUrl(photo)}
                      alt="Sent in the conversation"
                      className="aspect-square w-full max-w-56 rounded-lg object-cover"
                      data-testid="message-photo"
                    />
                  </a>
                ))}
              </div>
            ) : null}
          </>
        )}
      </div>
      <p className="flex items-center gap-2 text-xs text-ink-muted">
        <span>{formatWhen(entry.at)}</span>
        {receipt ? (
          entry.readAt ? (
            <span className="flex items-center gap-0.5" data-testid="read-receipt">
              <CheckCheck aria-hidden="true" className="size-3.5" /> Read
            </span>
          ) : (
            <span className="flex items-center gap-0.5" data-testid="sent-receipt">
              <Check aria-hidden="true" className="size-3.5" /> Sent
            </span>
          )
        ) : null}
        {!mine && !entry.hidden && view.side !== 'staff' ? (
          entry.reportedByMe ? (
            <span className="flex items-center gap-1" data-testid="message-reported">
              <Flag aria-hidden="true" className="size-3" />
              Reported
            </span>
          ) : (
            <ReportMessage threadId={view.id} messageId={entry.id} name={view.counterpartName} />
          )
        ) : null}
      </p>
    </li>
  );
}

/** "Report" on a message from the other member; once reported (or already), the thread says "Reported". */
function ReportMessage({ threadId, messageId, name }: { threadId: string; messageId: string; name: string }) {
  const [open, setOpen] = useState(false);
  const utils = trpc.useUtils();
  const report = trpc.community.messages.member.report.useMutation({
    // Reported now, or already while our team has it (409): either way the thread says so.
    onSettled: () => utils.community.messages.member.thread.invalidate({ threadId }),
  });
  return (
    <>
      <button
        type="button"
        className="flex cursor-pointer items-center gap-1 underline-offset-4 hover:text-ink hover:underline"
        onClick={() => setOpen(true)}
        data-testid="report-message"
      >
        <Flag aria-hidden="true" className="size-3" />
        Report
      </button>
      <ReportDialog
        kind="message"
        open={open}
        onOpenChange={setOpen}
        title="Report this message"
        description={`Tell our team what’s wrong with this message from ${name}. They aren’t told who reported it.`}
        send={(input) => report.mutateAsync({ messageId, ...input })}
      />
    </>
  );
}

function BlockButton({ view }: { view: View }) {
  const [open, setOpen] = useState(false);
  const utils = trpc.useUtils();
  const done = () => {
    setOpen(false);
    void utils.community.messages.member.thread.invalidate({ threadId: view.id });
  };
  const block = trpc.community.messages.member.block.useMutation({ onSuccess: done });
  const unblock = trpc.community.messages.member.unblock.useMutation({
    onSuccess: done,
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  if (view.blockedByMe) {
    return (
      <Button
        variant="outline"
        size="sm"
        onClick={() => unblock.mutate({ threadId: view.id })}
        disabled={unblock.isPending}
        data-testid="unblock"
      >
        Unblock
      </Button>
    );
  }
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setOpen(true)}
        data-testid="block"
        className="text-ink-muted"
      >
        <Ban aria-hidden="true" className="size-4" />
        <span className="max-sm:sr-only">Block</span>
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Block ${view.counterpartName}?`}
        description="Neither of you will be able to send messages to the other. Your conversations stay here to read, and you can unblock them later."
        confirmLabel="Block"
        confirmVariant="destructive"
        pending={block.isPending}
        error={block.error ? apiErrorMessage(block.error) : null}
        onConfirm={() => block.mutate({ threadId: view.id })}
      />
    </>
  );
}

interface Attached {
  key: string;
  url: string | null;
  preview: string;
}

function Composer({ view }: { view: View }) {
  // Stuck to the bottom of the screen: focus in the thread scrolls clear of it (WCAG 2.4.11).
  const composer = useRef<HTMLFormElement>(null);
  useStickyBar(composer, 'bottom');
  const [text, setText] = useState('');
  const [photos, setPhotos] = useState<Attached[]>([]);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const utils = trpc.useUtils();
  const send = trpc.community.messages.member.send.useMutation({
    onSuccess: () => {
      setText('');
      for (const photo of photos) URL.revokeObjectURL(photo.preview);
      setPhotos([]);
      setError(null);
      void utils.community.messages.member.thread.invalidate({ threadId: view.id });
      void utils.community.messages.member.threads.invalidate();
    },
    onError: (failure) => setError(apiErrorMessage(failure)),
  });

  if (!view.canWrite) {
    return (
      <Alert tone="info" data-testid="thread-read-only" live={false}>
        {view.blockedByMe
          ? `You blocked ${view.counterpartName}. Unblock them to send messages again.`
          : view.blockedByThem
            ? MESSAGE_TEXTS.blocked
            : view.side === 'staff'
              ? 'Staff read this conversation; they do not write in it.'
              : MESSAGE_TEXTS.recipientSuspended}
      </Alert>
    );
  }

  const uploading = photos.some((photo) => photo.url === null);
  const tooLong = text.length > MESSAGE_LIMITS.maxText;

  async function attach(files: FileList | null) {
    if (!files) return;
    setError(null);
    for (const file of Array.from(files)) {
      if (photos.length >= MESSAGE_LIMITS.maxPhotos) {
        setError(MESSAGE_TEXTS.tooManyPhotos);
        break;
      }
      const problem = checkPhotoFile(file);
      if (problem) {
        setError(problem);
        continue;
      }
      const key = `${Date.now()}-${Math.random()}`;
      const preview = URL.createObjectURL(file);
      setPhotos((current) =>
        current.length >= MESSAGE_LIMITS.maxPhotos ? current : [...current, { key, url: null, preview }],
      );
      try {
        const saved = await uploadFile<{ url: string }>(`${MESSAGE_PHOTO_PATH}?threadId=${view.id}`, file, {
          fallbackMessage: SELLING_MESSAGES.photoUnreadable,
        });
        setPhotos((current) =>
          current.map((photo) => (photo.key === key ? { ...photo, url: saved.url } : photo)),
        );
      } catch (failure) {
        setPhotos((current) => current.filter((photo) => photo.key !== key));
        URL.revokeObjectURL(preview);
        setError(failure instanceof UploadError ? failure.message : SELLING_MESSAGES.photoUnreadable);
      }
    }
    if (fileInput.current) fileInput.current.value = '';
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const ready = photos.flatMap((photo) => (photo.url ? [photo.url] : []));
    if (!text.trim() && ready.length === 0) {
      setError(MESSAGE_TEXTS.empty);
      return;
    }
    send.mutate({ threadId: view.id, text, photos: ready });
  }

  return (
    <form
      ref={composer}
      onSubmit={submit}
      className="sticky bottom-0 flex flex-col gap-2 rounded-xl border border-line bg-paper p-3 shadow-card"
      data-testid="composer"
    >
      {photos.length ? (
        <ul className="flex flex-wrap gap-2" aria-label="Photos to send">
          {photos.map((photo) => (
            <li
              key={photo.key}
              className="relative"
              data-testid="pending-photo"
              data-uploaded={photo.url !== null}
            >
              <img src={photo.preview} alt="" className="size-16 rounded-md object-cover" />
              {photo.url === null ? (
                <span className="absolute inset-0 grid place-items-center rounded-md bg-paper/60">
                  <Loader2 aria-label="Uploading" className="size-4 animate-spin" />
                </span>
              ) : null}
              <button
                type="button"
                aria-label="Remove this photo"
                className="absolute -top-1.5 -right-1.5 grid size-5 cursor-pointer place-items-center rounded-full bg-ink text-paper"
                onClick={() => {
                  URL.revokeObjectURL(photo.preview);
                  setPhotos((current) => current.filter((other) => other.key !== photo.key));
                }}
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor="message-text" className="sr-only">
        Your message
      </label>
      <Textarea
        id="message-text"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit(event);
        }}
        rows={2}
        placeholder={`Write to ${view.counterpartName}`}
        aria-invalid={tooLong || undefined}
        data-testid="message-input"
        className="min-h-16 resize-y"
      />
      {error ? (
        <p role="alert" className="text-sm text-destructive" data-testid="composer-error">
          {error}
        </p>
      ) : null}
      <div className="flex items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <input
            ref={fileInput}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            multiple
            className="sr-only"
            // The "Add photo" button opens it: one tab stop, and its name for a screen reader.
            aria-label="Add photo"
            tabIndex={-1}
            id="message-photo"
            data-testid="message-photo-input"
            onChange={(event) => void attach(event.target.files)}
          />
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => fileInput.current?.click()}
            disabled={photos.length >= MESSAGE_LIMITS.maxPhotos}
          >
            <ImagePlus aria-hidden="true" className="size-4" />
            <span className="max-sm:sr-only">Add photo</span>
          </Button>
          <span className={cn('text-xs tabular-nums', tooLong ? 'text-destructive' : 'text-ink-muted')}>
            {text.length > MESSAGE_LIMITS.maxText - 200 ? `${text.length}/${MESSAGE_LIMITS.maxText}` : null}
          </span>
        </div>
        <Button
          type="submit"
          variant="brand"
          size="sm"
          disabled={send.isPending || uploading || tooLong}
          data-testid="message-send"
        >
          {send.isPending ? (
            <Loader2 aria-hidden="true" className="size-4 animate-spin" />
          ) : (
            <Send aria-hidden="true" className="size-4" />
          )}
          Send
        </Button>
      </div>
      <p className="flex items-center gap-1 text-xs text-ink-muted">
        <ShieldAlert aria-hidden="true" className="size-3.5 shrink-0" />
        Pay only through Reshelf: your money is protected until the book arrives.
      </p>
    </form>
  );
}
