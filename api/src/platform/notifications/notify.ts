/**
 * `notify(trx, …)`: the one way a feature tells a member something (decision 0036). Call it on
 * the transaction of the event, beside the event's email (`mailer.send(…, { trx })`): the
 * notification exists exactly when the event committed, and the member's open tabs and apps
 * hear of it at once (a realtime event on `user:<id>`, ids only). The in-app notification is
 * written whatever the member's email preferences say.
 */
import type { NotificationKind } from '@reshelf/contracts';
import type { Database } from '../../db/index.ts';
import { publish, userTopic } from '../realtime/realtime.ts';

export interface NotificationInput {
  userId: string;
  kind: Exclude<NotificationKind, 'wishlist_price_drop' | 'wishlist_sold'>;
  /** One line: what happened ("New offer: £6.00 for Dracula"). */
  title: string;
  /** A sentence or two more. */
  body: string;
  /** Where it leads: a path on the site, or an absolute address on `origin` (made a path). */
  link?: string | null;
  orderId?: string | null;
  offerId?: string | null;
  listingId?: string | null;
  charityId?: string | null;
  /** Anything else it is about (a message thread). */
  entityId?: string | null;
  data?: Record<string, unknown>;
}

/** Realtime event kinds of notifications (on the member's own topic). */
export const NOTIFICATION_EVENTS = {
  created: 'notification.created',
  read: 'notification.read',
} as const;

const TITLE_MAX = 200;
const BODY_MAX = 1000;

function cut(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * A link as a path on the site: an absolute address loses its origin; anything that is not a
 * plain path (another site, `//host`, `javascript:`) is dropped.
 */
export function sitePath(link: string | null | undefined): string | null {
  if (!link) return null;
  let path = link;
  if (!link.startsWith('/')) {
    try {
      const url = new URL(link);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
      path = `${url.pathname}${url.search}${url.hash}`;
    } catch {
      return null;
    }
  }
  if (!/^\/[^/\\]/.test(path) || path.length > 500) return null;
  return path;
}

/** Writes the notifications on `trx` and announces each to its member; answers their ids. */
export async function notify(
  trx: Database,
  input: NotificationInput | NotificationInput[],
): Promise<string[]> {
  const inputs = Array.isArray(input) ? input : [input];
  if (inputs.length === 0) return [];
  const rows = await trx
    .insertInto('notifications')
    .values(
      inputs.map((n) => ({
        user_id: n.userId,
        kind: n.kind,
        title: cut(n.title, TITLE_MAX) || 'Reshelf',
        body: cut(n.body, BODY_MAX) || ' ',
        link: sitePath(n.link),
        order_id: n.orderId ?? null,
        offer_id: n.offerId ?? null,
        listing_id: n.listingId ?? null,
        charity_id: n.charityId ?? null,
        entity_id: n.entityId ?? null,
        data: JSON.stringify(n.data ?? {}),
        // Only message notifications wait for an email job (the digest); the others' emails are
        // queued by the caller beside this.
        emailed_at: n.kind === 'message_received' ? null : new Date(),
      })),
    )
    .returning(['id', 'user_id'])
    .execute();
  await publish(
    trx,
    rows.map((row) => ({
      topic: userTopic(row.user_id),
      kind: NOTIFICATION_EVENTS.created,
      entityId: row.id,
    })),
  );
  return rows.map((row) => row.id);
}
