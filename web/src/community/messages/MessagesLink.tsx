/**
 * The header's messages link for a signed-in member, at every width, with the unread count
 * (also shown in the tab title, "(2) …"), and the one live stream of their conversations (`community.messages.member.live`, over
 * SSE, resumed from the last event after a dropped connection): every change invalidates what
 * it touches, so the inbox, an open thread and the counts update without a reload.
 */
import { MessageCircle } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc.ts';

const TITLE_COUNT = /^\(\d+\+?\) /;

/** Prefixes the tab title with the unread count, whatever title the page sets. */
function useTitleCount(count: number) {
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(TITLE_COUNT, '');
      const next = count > 0 ? `(${count > 99 ? '99+' : count}) ${base}` : base;
      if (document.title !== next) document.title = next;
    };
    apply();
    const title = document.querySelector('title');
    if (!title) return;
    const observer = new MutationObserver(apply);
    observer.observe(title, { childList: true, characterData: true, subtree: true });
    return () => {
      observer.disconnect();
      document.title = document.title.replace(TITLE_COUNT, '');
    };
  }, [count]);
}

/**
 * Follows the member's conversations live; mounted once, in the header. Each time the stream
 * (re)connects, what is on screen is read again too: anything sent while it was connecting
 * arrives that way (the stream then carries on from the present, resuming from its last event
 * after a drop). Returns the stream's state ('pending' once it is connected).
 */
export function useMessagesLive(): string {
  const utils = trpc.useUtils();
  const live = trpc.community.messages.member.live.useSubscription(undefined, {
    onData: ({ data }) => {
      if (!data.thread) {
        // An offer or order changed: an open thread shows them as system lines.
        void utils.community.messages.member.thread.invalidate();
        return;
      }
      void utils.community.messages.member.unread.invalidate();
      void utils.community.messages.member.threads.invalidate();
      void utils.community.messages.member.thread.invalidate({ threadId: data.thread.id });
    },
  });
  const connected = live.status === 'pending';
  useEffect(() => {
    if (connected) void utils.community.messages.member.invalidate();
  }, [connected, utils]);
  return live.status;
}

export function MessagesLink() {
  const live = useMessagesLive();
  const unread = trpc.community.messages.member.unread.useQuery(undefined, { staleTime: 15_000 });
  const count = unread.data?.messages ?? 0;
  useTitleCount(count);
  return (
    <Link
      to="/messages"
      data-testid="messages-link"
      data-live={live}
      aria-label={count ? `Messages: ${count} unread` : 'Messages'}
      className="relative grid size-9 shrink-0 place-items-center rounded-full text-ink-soft transition-colors hover:bg-paper-deep hover:text-ink"
    >
      <MessageCircle aria-hidden="true" className="size-5" />
      {count ? (
        <span
          data-testid="messages-count"
          className="absolute -top-0.5 -right-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-brand px-1 text-[0.7rem] leading-none font-bold text-brand-foreground ring-2 ring-paper"
        >
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </Link>
  );
}
