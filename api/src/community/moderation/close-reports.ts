/**
 * What follows our team removing a member's content, whatever removed it (a report, the staff
 * listing search, the review queue): every open report on it closes, each reporter is told the
 * outcome, the removal is recorded for its owner (why, and their appeal: removals.service.ts), and
 * the owner is told. Its own module because the staff listing removal and the review removal call
 * it, and the reports service calls them (importing it from there would be a loop).
 *
 * The reporter is told what was decided in plain words, never the note staff wrote (it may name
 * the other member or what they did), nor who they are.
 */
import {
  APPEAL_WINDOW_DAYS,
  HARM_KINDS,
  HARM_LABELS,
  type HarmKind,
  REPORT_TARGET_LABELS,
  type ReportTargetKind,
} from '@reshelf/contracts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../db/database.generated.ts';
import type { Database } from '../../db/index.ts';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { layout } from '../../platform/mail/registry.ts';
import { notify } from '../../platform/notifications/notify.ts';

export type ReportTarget =
  | { listingId: string }
  | { offerId: string }
  | { messageId: string }
  | { reviewId: string }
  | { profileId: string }
  | { charityId: string };

export interface ModerationDeps {
  db: Database;
  mailer: Mailer;
  origin: string;
}

const COLUMNS = {
  listingId: ['listing_id', 'listing'],
  offerId: ['offer_id', 'offer_message'],
  messageId: ['message_id', 'message'],
  reviewId: ['review_id', 'review'],
  profileId: ['profile_id', 'profile'],
  charityId: ['charity_id', 'charity'],
} as const;

export function targetColumn(target: ReportTarget) {
  const key = Object.keys(target)[0] as keyof typeof COLUMNS;
  const [column, kind] = COLUMNS[key];
  return { column, kind: kind as ReportTargetKind, id: (target as Record<string, string>)[key] as string };
}

/** The page a member reads a removal of their content on, and appeals from. */
export const removalPath = (id: string) => `/account/removals/${id}`;

/** Where a reporter reads what they reported and what we decided. */
const REPORTS_PATH = '/account/notifications';

interface Person {
  email: string | null;
  name: string;
}

async function person(trx: Database, userId: string): Promise<Person> {
  const row = await trx
    .selectFrom('auth.users as u')
    .leftJoin('profiles as p', 'p.id', 'u.id')
    .select(['u.email', 'p.display_name'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return { email: row?.email ?? null, name: row?.display_name ?? 'there' };
}

/**
 * Tells a member something about reports or appeals: in the app, and by email (these are always
 * emailed: NOTIFICATION_KIND_INFO), both on `trx`.
 */
export async function tellMember(
  trx: Database,
  deps: Pick<ModerationDeps, 'mailer' | 'origin'>,
  userId: string,
  message: {
    kind: 'report_decided' | 'content_removed' | 'appeal_decided';
    title: string;
    lines: string[];
    link: string;
    linkLabel: string;
    entityId: string;
  },
): Promise<void> {
  await notify(trx, {
    userId,
    kind: message.kind,
    title: message.title,
    body: message.lines.join(' '),
    link: message.link,
    entityId: message.entityId,
  });
  const to = await person(trx, userId);
  if (!to.email) return;
  const paragraphs = [`Hello ${to.name},`, ...message.lines];
  const url = `${deps.origin}${message.link}`;
  await deps.mailer.send(
    {
      to: to.email,
      subject: message.title,
      text: `${paragraphs.join('\n\n')}\n\n${message.linkLabel}: ${url}\n`,
      html: layout(paragraphs, { label: message.linkLabel, url }),
      template: `safety.${message.kind}`,
      userId,
    },
    { trx },
  );
}

/** What a reporter is told when our team decides their report: the outcome, nothing private. */
export function outcomeLines(kind: ReportTargetKind, harm: HarmKind, actioned: boolean): string[] {
  const thing = REPORT_TARGET_LABELS[kind];
  return actioned
    ? [
        `Thank you for reporting a ${thing} (${HARM_LABELS[harm].toLowerCase()}). Our team looked at it and found it broke our rules, so we have removed it and dealt with the member who posted it.`,
        'We don’t share what we did about the other member: it is private to them.',
      ]
    : [
        `Thank you for reporting a ${thing} (${HARM_LABELS[harm].toLowerCase()}). Our team looked at it carefully and found it doesn’t break our rules, so it stays up.`,
        'If you see something else that worries you, please report it too.',
      ];
}

export async function tellReporter(
  trx: Database,
  deps: Pick<ModerationDeps, 'mailer' | 'origin'>,
  report: { id: string; reporter_id: string; target_kind: string; harm: string },
  actioned: boolean,
): Promise<void> {
  const kind = report.target_kind as ReportTargetKind;
  await tellMember(trx, deps, report.reporter_id, {
    kind: 'report_decided',
    title: actioned
      ? `We removed the ${REPORT_TARGET_LABELS[kind]} you reported`
      : `We checked the ${REPORT_TARGET_LABELS[kind]} you reported`,
    lines: outcomeLines(kind, report.harm as HarmKind, actioned),
    link: REPORTS_PATH,
    linkLabel: 'See your notifications',
    entityId: report.id,
  });
}

/**
 * Marks the target's open reports actioned, each audited and its reporter told; answers them
 * (the most serious harm first, as HARM_KINDS orders them).
 */
export async function closeOpenReports(
  trx: Transaction<DB>,
  deps: Pick<ModerationDeps, 'mailer' | 'origin'>,
  staffId: string,
  target: ReportTarget,
  note: string,
): Promise<{ id: string; harm: HarmKind }[]> {
  const { column, id } = targetColumn(target);
  const closed = await trx
    .updateTable('reports')
    .set({ status: 'actioned', resolved_by: staffId, resolved_at: sql<Date>`now()`, resolution_note: note })
    .where('status', '=', 'open')
    .where(column, '=', id)
    .returning(['id', 'target_kind', 'reason', 'harm', 'reporter_id'])
    .execute();
  for (const report of closed) {
    await recordAudit(trx, {
      actorId: staffId,
      action: 'report.action',
      targetType: 'report',
      targetId: report.id,
      details: { kind: report.target_kind, reason: report.reason, harm: report.harm, ...target, note },
    });
    await tellReporter(trx, deps, report, true);
  }
  return closed
    .map((report) => ({ id: report.id, harm: report.harm as HarmKind }))
    .sort((a, b) => HARM_KINDS.indexOf(a.harm) - HARM_KINDS.indexOf(b.harm));
}

/**
 * Our team removed a member's content: the open reports on it close (their reporters told), the
 * removal is recorded with the appeal window, audited, and the owner is told which content, the
 * rule it broke, what we did, and that they may appeal. Answers how many reports closed.
 */
export async function recordRemoval(
  trx: Transaction<DB>,
  deps: Pick<ModerationDeps, 'mailer' | 'origin'>,
  staffId: string,
  removal: {
    target: ReportTarget;
    ownerId: string;
    note: string;
    /** The content in words, as its owner knows it (“your listing “Dracula””). */
    what: string;
    /**
     * What was taken down to be put back if the appeal is upheld (a profile's bio and photo, a
     * charity page's description and logo).
     */
    removedContent?: Record<string, unknown>;
  },
): Promise<number> {
  const closed = await closeOpenReports(trx, deps, staffId, removal.target, removal.note);
  const { column, kind, id } = targetColumn(removal.target);
  const harm = closed[0]?.harm ?? null;
  const row = await trx
    .insertInto('moderation_removals')
    .values({
      target_kind: kind,
      [column]: id,
      owner_id: removal.ownerId,
      removed_by: staffId,
      reason: removal.note,
      harm,
      what: removal.what,
      removed_content: JSON.stringify(removal.removedContent ?? {}),
      appeal_by: sql<Date>`now() + make_interval(days => ${APPEAL_WINDOW_DAYS})`,
    })
    .returning(['id', 'appeal_by'])
    .executeTakeFirstOrThrow();
  await recordAudit(trx, {
    actorId: staffId,
    action: 'removal.record',
    targetType: 'removal',
    targetId: row.id,
    details: { kind, [column]: id, ownerId: removal.ownerId, harm, reason: removal.note },
  });
  const by = row.appeal_by.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/London',
  });
  await tellMember(trx, deps, removal.ownerId, {
    kind: 'content_removed',
    title: `We removed ${removal.what}`,
    lines: [
      `Our team removed ${removal.what} from Reshelf${harm ? `, after a report of ${HARM_LABELS[harm].toLowerCase()}` : ''}, because it broke our community rules.`,
      `The reason: ${removal.note}`,
      `If you think we got it wrong, you can appeal until ${by}: tell us why and someone else on our team will look again.`,
    ],
    link: removalPath(row.id),
    linkLabel: 'See why, or appeal',
    entityId: row.id,
  });
  return closed.length;
}
