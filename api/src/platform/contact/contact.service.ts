/**
 * The contact form: messages from anyone (signed in or not), read by staff. A hidden field
 * catches simple bots, and one sender (by a salted hash of their address on the network)
 * can send a few messages an hour.
 */
import { type ContactInput, contactInputSchema } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { AppError } from '../../errors.ts';

export const CONTACT_LIMIT = { messages: 5, windowMinutes: 60 } as const;

export interface ContactSender {
  /** Salted hash standing in for the sender's network address. */
  senderKey: string;
  userId?: string | null;
}

export async function submitContactMessage(
  db: Database,
  input: ContactInput,
  sender: ContactSender,
): Promise<{ received: true; reference: string }> {
  const message = contactInputSchema.parse(input);
  if (message.website) {
    // Only a bot fills in the hidden field: thank it and keep nothing.
    return { received: true, reference: 'RS-MSG' };
  }
  // Counting and sending are one step: a sender's messages take turns (a lock on their key for
  // the transaction), so concurrent ones cannot all see a count under the limit.
  const row = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('contact'), hashtext(${sender.senderKey}))`.execute(trx);
    const since = new Date(Date.now() - CONTACT_LIMIT.windowMinutes * 60_000);
    const recent = await trx
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('sender_key', '=', sender.senderKey)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    if (Number(recent.count) >= CONTACT_LIMIT.messages) {
      throw new AppError(
        'RATE_LIMITED',
        'You have sent several messages in the last hour. We will reply to those first; please wait a while before sending another.',
      );
    }
    return trx
      .insertInto('contact_messages')
      .values({
        name: message.name,
        email: message.email,
        topic: message.topic,
        message: message.message,
        user_id: sender.userId ?? null,
        sender_key: sender.senderKey,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  });
  return { received: true, reference: `RS-MSG-${row.id.slice(0, 8).toUpperCase()}` };
}

export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  topic: string;
  message: string;
  userId: string | null;
  createdAt: string;
  handledAt: string | null;
}

/**
 * Staff read the messages, newest first, a page at a time (keyset on created_at and id, so a
 * message arriving while they read does not shift the list). The staff-only procedure that
 * calls this is contact.list.
 */
export async function listContactMessages(
  db: Database,
  options: { limit?: number; before?: { createdAt: string; id: string }; unhandledOnly?: boolean } = {},
): Promise<{ items: ContactMessage[]; next: { createdAt: string; id: string } | null }> {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 100);
  let query = db
    .selectFrom('contact_messages')
    .select(['id', 'name', 'email', 'topic', 'message', 'user_id', 'created_at', 'handled_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (options.unhandledOnly) query = query.where('handled_at', 'is', null);
  const before = options.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', new Date(before.createdAt)),
        eb.and([eb('created_at', '=', new Date(before.createdAt)), eb('id', '<', before.id)]),
      ]),
    );
  }
  const rows = await query.execute();
  const items = rows.slice(0, limit).map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    topic: row.topic,
    message: row.message,
    userId: row.user_id,
    createdAt: row.created_at.toISOString(),
    handledAt: row.handled_at?.toISOString() ?? null,
  }));
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}
