/**
 * The wants matcher (decision 0088). A listing that becomes active (or cheaper, or moves to
 * another edition) is queued in `want_queue` by a trigger in the transaction that did it; this
 * takes the queue (`for update skip locked`, deleting what it took in the same transaction),
 * finds the wants whose target covers each listing's edition by index (targets.ts), never the
 * seller's own, keeps those whose conditions the copy meets (contracts' `wantAccepts`, with the
 * copy's all-in price under the live settings) and records each match once (`want_matches`).
 * Each member is told in the app (`want_match`) and, for "at once" wants, by email (`wants.alert`);
 * "once a day" wants wait for one digest per member per day (`wants.digest`). Both emails are on
 * the list `wants`, so each has a one-click unsubscribe.
 *
 * It runs right after the commit of every publishing path (kickWantMatcher) and on every job
 * round (`wants.match`), the backstop: nothing queued is lost, and nobody is told twice.
 */
import { countOf, describeWantConditions, SHOWN_PRICE_WORDS, wantAccepts } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { BackgroundWork } from '../../http/background.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { renderEmail } from '../../platform/mail/render.ts';
import { listRecipient } from '../../platform/mail/suppressions.ts';
import { notify } from '../../platform/notifications/notify.ts';
import { DIGEST_INTERVAL_MS } from '../social/saved-searches.service.ts';
import {
  CONDITION_COLUMNS,
  COPY_COLUMNS,
  type ConditionRow,
  type CopyRow,
  conditionsOf,
  copyOf,
  shownOf,
} from './copies.ts';
import { COVERING_WANTS } from './targets.ts';

export interface WantMatchDeps {
  db: Database;
  mailer: Mailer;
  origin: string;
}

/** Listings taken from the queue in one transaction. */
export const MATCH_BATCH = 100;
/** Copies quoted in one notification or email (the rest are counted). */
const QUOTED = 5;
const WANTS_PATH = '/account/wants';

interface CandidateRow extends CopyRow, ConditionRow {
  want_id: string;
  user_id: string;
  alerts: 'instant' | 'daily' | 'off';
  listing_id: string;
  slug: string;
  title: string;
  authors: string[];
}

/** "Dracula, Bram Stoker (Signed · First edition): £48.20 including buyer protection, + postage from £2.29" */
function copyLine(row: CandidateRow): string {
  const by = row.authors.length ? `, ${row.authors.join(', ')}` : '';
  const asked = describeWantConditions(conditionsOf(row));
  const conditions = asked.length ? ` (${asked.join(' · ')})` : '';
  return `${row.title}${by}${conditions}: ${SHOWN_PRICE_WORDS.inline(shownOf(row))}`;
}

/**
 * The job: takes queued listings a batch at a time until the queue is empty (or `maxBatches`
 * ran), and sends the daily digests that are due. Answers how many matches and digests it made.
 */
export async function matchQueuedWants(
  deps: WantMatchDeps,
  now = new Date(),
  options: { maxBatches?: number } = {},
): Promise<number> {
  return (await matchQueue(deps, now, options)) + (await sendWantDigests(deps, now));
}

/** The queue only, a batch at a time: what a publishing commit needs (digests are the job's). */
async function matchQueue(
  deps: WantMatchDeps,
  now: Date,
  { maxBatches = 20 }: { maxBatches?: number },
): Promise<number> {
  let made = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const result = await matchBatch(deps, now);
    made += result.matches;
    if (result.taken < MATCH_BATCH) break;
  }
  return made;
}

async function matchBatch(deps: WantMatchDeps, now: Date): Promise<{ taken: number; matches: number }> {
  return deps.db.transaction().execute(async (trx) => {
    const { rows: taken } = await sql<{ listing_id: string }>`
      delete from public.want_queue q
      where q.listing_id in (
        select listing_id from public.want_queue order by queued_at limit ${MATCH_BATCH}
        for update skip locked)
      returning q.listing_id`.execute(trx);
    if (taken.length === 0) return { taken: 0, matches: 0 };
    const { rows: candidates } = await sql<CandidateRow>`
      select w.id as want_id, w.user_id, w.alerts, l.id as listing_id, l.slug, b.title, b.authors,
        ${CONDITION_COLUMNS}, ${COPY_COLUMNS}
      from public.listings l
      join public.books b on b.id = l.book_id
      left join public.works wk on wk.id = b.work_id
      cross join ${COVERING_WANTS}
      join public.wants w on w.id = covering.want_id
      where l.id = any(${taken.map((row) => row.listing_id)}::uuid[])
        and l.status = 'active' and w.user_id <> l.seller_id
      order by w.user_id, l.published_at, l.id`.execute(trx);
    const meeting = candidates.filter((row) => wantAccepts(conditionsOf(row), copyOf(row)));
    if (meeting.length === 0) return { taken: taken.length, matches: 0 };
    const inserted = await trx
      .insertInto('want_matches')
      .values(meeting.map((row) => ({ want_id: row.want_id, listing_id: row.listing_id, matched_at: now })))
      .onConflict((oc) => oc.columns(['want_id', 'listing_id']).doNothing())
      .returning(['want_id', 'listing_id'])
      .execute();
    const fresh = new Set(inserted.map((row) => `${row.want_id}:${row.listing_id}`));
    const byMember = new Map<string, CandidateRow[]>();
    for (const row of meeting) {
      if (!fresh.has(`${row.want_id}:${row.listing_id}`)) continue;
      byMember.set(row.user_id, [...(byMember.get(row.user_id) ?? []), row]);
    }
    for (const [userId, rows] of byMember) await tell(deps, trx, userId, rows, now);
    return { taken: taken.length, matches: inserted.length };
  });
}

/** One notification per member (a listing once, however many of their wants it met), and the email. */
async function tell(
  deps: WantMatchDeps,
  trx: Database,
  userId: string,
  rows: CandidateRow[],
  now: Date,
): Promise<void> {
  const copies = [...new Map(rows.map((row) => [row.listing_id, row])).values()];
  const first = copies[0] as CandidateRow;
  await notify(trx, {
    userId,
    kind: 'want_match',
    title:
      copies.length === 1
        ? `Wanted: ${first.title} is on sale`
        : `${countOf(copies.length, 'book you want is', 'books you want are')} on sale`,
    body:
      copies.length === 1
        ? `${copyLine(first)}.`
        : `${copies.slice(0, QUOTED).map(copyLine).join('; ')}${copies.length > QUOTED ? ` and ${copies.length - QUOTED} more` : ''}.`,
    link: copies.length === 1 ? `/listing/${first.slug}` : WANTS_PATH,
    listingId: copies.length === 1 ? first.listing_id : null,
    entityId: first.want_id,
    data: {
      wantIds: [...new Set(rows.map((row) => row.want_id))],
      listingIds: copies.map((row) => row.listing_id),
    },
  });
  const instant = [
    ...new Map(rows.filter((row) => row.alerts === 'instant').map((row) => [row.listing_id, row])).values(),
  ];
  if (instant.length) {
    const email = await listRecipient(trx, userId, 'wants');
    if (email) {
      const lead = instant[0] as CandidateRow;
      const books = instant.slice(0, QUOTED).map(copyLine);
      if (instant.length > QUOTED) books.push(`And ${instant.length - QUOTED} more.`);
      const rendered = await renderEmail(trx, 'wants.alert', {
        headline:
          instant.length === 1
            ? `${lead.title} is on sale`
            : `${countOf(instant.length, 'book you want is', 'books you want are')} on sale`,
        books: books.join('\n'),
        newCopies: countOf(instant.length, 'copy', 'copies'),
        url: `${deps.origin}${instant.length === 1 ? `/listing/${lead.slug}` : WANTS_PATH}`,
        manageUrl: `${deps.origin}${WANTS_PATH}`,
      });
      await deps.mailer.send({ to: email, ...rendered, template: 'wants.alert', userId }, { trx });
    }
  }
  // What is emailed now, or never (alerts off), is done; "once a day" waits for the digest.
  const done = rows.filter((row) => row.alerts !== 'daily');
  for (const row of done) {
    await trx
      .updateTable('want_matches')
      .set({ emailed_at: now })
      .where('want_id', '=', row.want_id)
      .where('listing_id', '=', row.listing_id)
      .execute();
  }
}

/** One email per member whose daily wants matched since their last digest (a day ago or more). */
export async function sendWantDigests(deps: WantMatchDeps, now = new Date()): Promise<number> {
  const dueBefore = new Date(now.getTime() - DIGEST_INTERVAL_MS);
  const { rows: members } = await sql<{ user_id: string }>`
    select w.user_id from public.wants w
    where w.alerts = 'daily'
      and exists (select 1 from public.want_matches m where m.want_id = w.id and m.emailed_at is null)
    group by w.user_id
    having coalesce(max(w.last_digest_at), '-infinity') <= ${dueBefore}
    limit 200`.execute(deps.db);
  let sent = 0;
  for (const { user_id: userId } of members) {
    sent += await deps.db.transaction().execute(async (trx) => {
      const { rows } = await sql<CandidateRow>`
        select w.id as want_id, w.user_id, w.alerts, l.id as listing_id, l.slug, b.title, b.authors,
          ${CONDITION_COLUMNS}, ${COPY_COLUMNS}
        from public.want_matches m
        join public.wants w on w.id = m.want_id
        join public.listings l on l.id = m.listing_id
        join public.books b on b.id = l.book_id
        where w.user_id = ${userId} and w.alerts = 'daily' and m.emailed_at is null
        order by m.matched_at, l.id
        for update of m skip locked`.execute(trx);
      if (rows.length === 0) return 0;
      const copies = [...new Map(rows.map((row) => [row.listing_id, row])).values()];
      const email = await listRecipient(trx, userId, 'wants');
      if (email) {
        const books = copies.slice(0, QUOTED * 4).map(copyLine);
        if (copies.length > QUOTED * 4) books.push(`And ${copies.length - QUOTED * 4} more.`);
        const rendered = await renderEmail(trx, 'wants.digest', {
          newCopies: countOf(copies.length, 'copy', 'copies'),
          books: books.join('\n'),
          url: `${deps.origin}${WANTS_PATH}`,
        });
        await deps.mailer.send({ to: email, ...rendered, template: 'wants.digest', userId }, { trx });
      }
      await sql`
        update public.want_matches m set emailed_at = ${now}
        from public.wants w
        where w.id = m.want_id and w.user_id = ${userId} and w.alerts = 'daily' and m.emailed_at is null`.execute(
        trx,
      );
      await trx
        .updateTable('wants')
        .set({ last_digest_at: now })
        .where('user_id', '=', userId)
        .where('alerts', '=', 'daily')
        .execute();
      return 1;
    });
  }
  return sent;
}

/**
 * Right after a publishing commit: match the queue now, after the answer (tracked, so tests can
 * wait). A failure is logged; the queue keeps the listing for the job round.
 */
export function kickWantMatcher(
  deps: WantMatchDeps & { background: BackgroundWork; log: (message: string, error?: unknown) => void },
): void {
  deps.background.track(
    matchQueue(deps, new Date(), {}).catch((error: unknown) => deps.log('wants matcher failed', error)),
  );
}
