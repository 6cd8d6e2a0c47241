/**
 * Staff review of charity applications: the queue, and approving or rejecting one with a
 * reason. Each decision is one transaction that moves the charity only from pending (two
 * staff deciding at once cannot both win), writes charity_reviews (who, what, why, when: the
 * audit trail), and then emails the owner.
 */
import {
  type CharityApplication,
  type CharityReviewInput,
  type CharityStatus,
  charityReviewInputSchema,
  parseCharityNumber,
} from '@reshelf/contracts';
import type { Database } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { recordAudit } from '../platform/audit/audit.service.ts';
import { charityMail } from '../platform/mail/charity-mail.ts';
import { notify } from '../platform/notifications/notify.ts';
import type { CharityDeps } from './charity-account.service.ts';

export async function charityApplications(
  db: Database,
  status: CharityStatus,
): Promise<CharityApplication[]> {
  const rows = await db
    .selectFrom('charities as c')
    .leftJoin('auth.users as u', 'u.id', 'c.owner_id')
    .select([
      'c.id',
      'c.slug',
      'c.name',
      'c.registered_number',
      'c.status',
      'c.contact_name',
      'c.contact_email',
      'c.contact_phone',
      'c.address_line1',
      'c.address_line2',
      'c.town',
      'c.postcode',
      'c.description',
      'c.website',
      'c.logo_url',
      'u.email',
      'c.rejection_reason',
      'c.created_at',
      'c.reviewed_at',
    ])
    .where('c.status', '=', status)
    .orderBy(status === 'pending' ? 'c.created_at' : 'c.reviewed_at', status === 'pending' ? 'asc' : 'desc')
    .limit(200)
    .execute();
  return rows.map((row) => {
    const parsed = parseCharityNumber(row.registered_number);
    return {
      id: row.id,
      slug: row.slug,
      name: row.name,
      registeredNumber: row.registered_number,
      register: parsed.ok ? parsed.register : 'england_wales',
      status: row.status as CharityStatus,
      contactName: row.contact_name,
      contactEmail: row.contact_email,
      contactPhone: row.contact_phone,
      address:
        [row.address_line1, row.address_line2, row.town, row.postcode].filter(Boolean).join(', ') || null,
      description: row.description,
      website: row.website,
      logoUrl: row.logo_url,
      ownerEmail: row.email ?? null,
      rejectionReason: row.rejection_reason,
      createdAt: row.created_at.toISOString(),
      reviewedAt: row.reviewed_at?.toISOString() ?? null,
    };
  });
}

export async function reviewCharity(
  deps: CharityDeps,
  staffId: string,
  input: CharityReviewInput,
): Promise<{ status: 'approved' | 'rejected' }> {
  const review = charityReviewInputSchema.parse(input);
  const approve = review.decision === 'approve';
  const reason = review.decision === 'reject' ? review.reason : null;
  await deps.db.transaction().execute(async (trx) => {
    const now = new Date();
    const updated = await trx
      .updateTable('charities')
      .set({
        status: approve ? 'approved' : 'rejected',
        approved_at: approve ? now : null,
        reviewed_at: now,
        reviewed_by: staffId,
        rejection_reason: reason,
      })
      .where('id', '=', review.charityId)
      .where('status', '=', 'pending')
      .returning(['id', 'name', 'owner_id'])
      .executeTakeFirst();
    if (!updated) {
      const exists = await trx
        .selectFrom('charities')
        .select('status')
        .where('id', '=', review.charityId)
        .executeTakeFirst();
      throw exists
        ? new AppError('CONFLICT', `This application has already been ${exists.status}.`)
        : new AppError('NOT_FOUND', 'We couldn’t find that application.');
    }
    await trx
      .insertInto('charity_reviews')
      .values({
        charity_id: updated.id,
        decision: approve ? 'approved' : 'rejected',
        reason,
        actor_id: staffId,
      })
      .execute();
    await recordAudit(trx, {
      actorId: staffId,
      action: approve ? 'charity.approve' : 'charity.reject',
      targetType: 'charity',
      targetId: updated.id,
      details: { name: updated.name, ...(reason ? { reason } : {}) },
    });
    // The owner is told in the decision's transaction, in the app and by email.
    if (updated.owner_id) {
      await notify(trx, {
        userId: updated.owner_id,
        kind: 'charity_application_decided',
        title: approve
          ? `${updated.name} is approved to sell on Reshelf`
          : `Your application for ${updated.name} was not approved`,
        body: approve
          ? 'It now appears in the charity directory. List books one at a time or from a CSV file, and invite your shop’s staff.'
          : `The reason our team gave: ${reason}`,
        link: approve ? '/charity/dashboard' : '/charity/signup',
        charityId: updated.id,
      });
    }
    const owner = updated.owner_id
      ? await trx
          .selectFrom('auth.users')
          .select('email')
          .where('id', '=', updated.owner_id)
          .executeTakeFirst()
      : undefined;
    if (owner?.email) {
      const mail = approve
        ? charityMail.approved({ name: updated.name, url: `${deps.origin}/charity/dashboard` })
        : charityMail.rejected({ name: updated.name, reason: reason!, url: `${deps.origin}/charity/signup` });
      await deps.mailer.send(
        {
          to: owner.email,
          ...mail,
          template: approve ? 'charity-approved' : 'charity-rejected',
          userId: updated.owner_id,
        },
        { trx },
      );
    }
  });
  return { status: approve ? 'approved' : 'rejected' };
}
