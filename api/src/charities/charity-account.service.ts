/**
 * A charity's own side: applying to sell (the applicant becomes the owner), the owner's team
 * (invitations by email, accepted once signed in with that address), and starting a listing
 * for the charity through the sell wizard's own service.
 *
 * A person acts for one charity at a time (a unique index on charity_members.user_id). Every
 * charity action starts from requireCharity, which says which charity and whether the caller
 * may do it; someone who is not a member gets "not found"-like answers, never another
 * charity's data.
 */
import {
  CHARITY_REGISTER_LABELS,
  type CharityInvitation,
  type CharitySignupInput,
  type CharityTeam,
  charitySignupInputSchema,
  type MyCharity,
  parseCharityNumber,
  slugify,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import { type BundleTiersView, getTiers, setTiers } from '../commerce/index.ts';
import type { Database } from '../db/index.ts';
import { AppError } from '../errors.ts';
import type { BookLookupPort } from '../platform/book-lookup/book-lookup.ts';
import { activeAdmins, membershipOf, requireCharity } from '../platform/identity/memberships.ts';
import { charityMail } from '../platform/mail/charity-mail.ts';
import type { Mailer } from '../platform/mail/mailer.ts';
import { notify } from '../platform/notifications/notify.ts';
import type { StoragePort } from '../platform/storage/port.ts';
import { type StartResult, startListing } from '../selling/index.ts';

export interface CharityDeps {
  db: Database;
  mailer: Mailer;
  /** The site's origin, for links in emails. */
  origin: string;
}

export async function myCharity(db: Database, userId: string): Promise<MyCharity> {
  const row = await db
    .selectFrom('charity_members as m')
    .innerJoin('charities as c', 'c.id', 'm.charity_id')
    .select([
      'c.id',
      'c.slug',
      'c.name',
      'c.status',
      'c.registered_number',
      'c.town',
      'c.logo_url',
      'c.rejection_reason',
      'c.created_at',
      'c.approved_at',
      'm.role',
    ])
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    status: row.status as NonNullable<MyCharity>['status'],
    role: row.role as 'owner' | 'staff',
    registeredNumber: row.registered_number,
    town: row.town,
    logoUrl: row.logo_url,
    rejectionReason: row.rejection_reason,
    createdAt: row.created_at.toISOString(),
    approvedAt: row.approved_at?.toISOString() ?? null,
  };
}

/** Where a person's uploaded logos live in storage; sign-up accepts only these. */
export function logoPrefix(userId: string): string {
  return `charity-logos/${userId}/`;
}

/** Whether a URL is a logo this person uploaded (its key under their prefix, as we name it). */
function isOwnLogo(storage: StoragePort, userId: string, url: string): boolean {
  const prefix = logoPrefix(userId);
  const key = url.slice(url.indexOf(prefix));
  return (
    url.includes(prefix) &&
    new RegExp(`^${prefix}[0-9a-f]{16}/\\d+\\.webp$`).test(key) &&
    storage.publicUrl(key) === url
  );
}

async function freeSlug(db: Database, name: string): Promise<string> {
  const base = (slugify(name) || 'charity').slice(0, 70).replace(/-+$/, '');
  const taken = await db
    .selectFrom('charities')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  const used = new Set(taken.map((row) => row.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const pg = error as { code?: string; constraint?: string };
  return pg.code === '23505' && pg.constraint === constraint;
}

/**
 * An application to sell as a charity. The applicant becomes its owner (a trigger adds the
 * membership) and is emailed, as is every admin, in the application's transaction; staff
 * approve or reject it. Someone whose earlier application
 * was rejected may apply again: the old membership goes, the old record stays for the audit.
 */
export async function signUpCharity(
  deps: CharityDeps & { storage: StoragePort },
  applicant: { userId: string; email: string },
  input: CharitySignupInput,
): Promise<{ id: string; slug: string; name: string }> {
  const values = charitySignupInputSchema.parse(input);
  if (values.logoUrl && !isOwnLogo(deps.storage, applicant.userId, values.logoUrl)) {
    throw new AppError('BAD_INPUT', 'Upload your logo again: we couldn’t find the one you chose.', {
      field: 'logoUrl',
    });
  }
  const existing = await membershipOf(deps.db, applicant.userId);
  if (existing && existing.status !== 'rejected') {
    throw new AppError(
      'CONFLICT',
      existing.status === 'approved'
        ? `You already sell for ${existing.name}. Open the charity dashboard to manage it.`
        : `You have already applied for ${existing.name}: we’ll email you when our team has reviewed it.`,
    );
  }
  let created: { id: string; slug: string; name: string };
  try {
    created = await deps.db.transaction().execute(async (trx) => {
      if (existing) {
        await trx
          .deleteFrom('charity_members')
          .where('user_id', '=', applicant.userId)
          .where('charity_id', '=', existing.charityId)
          .execute();
      }
      const created = await trx
        .insertInto('charities')
        .values({
          slug: await freeSlug(deps.db, values.name),
          name: values.name,
          registered_number: values.registeredNumber,
          status: 'pending',
          contact_name: values.contactName,
          contact_email: values.contactEmail,
          contact_phone: values.contactPhone,
          address_line1: values.addressLine1,
          address_line2: values.addressLine2,
          town: values.town,
          postcode: values.postcode,
          description: values.description,
          website: values.website,
          logo_url: values.logoUrl ?? null,
          owner_id: applicant.userId,
        })
        .returning(['id', 'slug', 'name'])
        .executeTakeFirstOrThrow();
      // The applicant's receipt and every admin's notice, with the application.
      const mail = charityMail.received({ name: created.name, url: `${deps.origin}/charity/dashboard` });
      await deps.mailer.send(
        { to: applicant.email, ...mail, template: 'charity-received', userId: applicant.userId },
        { trx },
      );
      await tellAdmins(trx, deps, { ...values, name: created.name, applicantEmail: applicant.email });
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'charities_registered_number_key')) {
      throw new AppError(
        'CONFLICT',
        `A charity with the number ${values.registeredNumber} has already applied or sells on Reshelf. If it is yours, ask its owner to invite you.`,
        { field: 'registeredNumber' },
      );
    }
    if (isUniqueViolation(error, 'charities_slug_key')) {
      throw new AppError(
        'CONFLICT',
        'Another charity applied with the same name just now. Please try again.',
      );
    }
    throw error;
  }
  return created;
}

/** Charity applications waiting for staff review (the dashboard's card, the sidebar's badge). */
export async function waitingApplications(db: Database): Promise<number> {
  const row = await db
    .selectFrom('charities')
    .select((eb) => eb.fn.countAll<string>().as('waiting'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.waiting);
}

/**
 * Every active admin is emailed about a new application, with how many are waiting: queued on
 * `trx`, the application's transaction.
 */
async function tellAdmins(
  trx: Database,
  deps: CharityDeps,
  application: { name: string; registeredNumber: string; town: string; applicantEmail: string },
): Promise<void> {
  const admins = await activeAdmins(trx);
  const waiting = await waitingApplications(trx);
  const parsed = parseCharityNumber(application.registeredNumber);
  const mail = charityMail.applicationForStaff({
    name: application.name,
    registeredNumber: application.registeredNumber,
    register: CHARITY_REGISTER_LABELS[parsed.ok ? parsed.register : 'england_wales'],
    town: application.town,
    applicantEmail: application.applicantEmail,
    waiting,
    url: `${deps.origin}/admin/charities`,
  });
  for (const admin of admins) {
    await deps.mailer.send(
      { to: admin.email, ...mail, template: 'charity-application-staff', userId: admin.id },
      { trx },
    );
  }
}

// The team ---------------------------------------------------------------------------------------

export async function charityTeam(db: Database, userId: string): Promise<CharityTeam> {
  const charity = await requireCharity(db, userId);
  const [members, invitations] = await Promise.all([
    db
      .selectFrom('charity_members as m')
      .innerJoin('profiles as p', 'p.id', 'm.user_id')
      .innerJoin('auth.users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'p.display_name', 'u.email', 'm.role'])
      .where('m.charity_id', '=', charity.charityId)
      .orderBy('m.role', 'asc')
      .orderBy('m.created_at', 'asc')
      .execute(),
    db
      .selectFrom('charity_invitations')
      .select(['id', 'email', 'created_at'])
      .where('charity_id', '=', charity.charityId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute(),
  ]);
  return {
    members: members.map((m) => ({
      userId: m.user_id,
      name: m.display_name,
      email: charity.role === 'owner' ? m.email : null,
      role: m.role as 'owner' | 'staff',
    })),
    invitations:
      charity.role === 'owner'
        ? invitations.map((i) => ({ id: i.id, email: i.email, createdAt: i.created_at.toISOString() }))
        : [],
  };
}

/** The owner invites someone by email; they accept once signed in with that address. */
export async function inviteMember(
  deps: CharityDeps,
  inviter: { userId: string },
  emailInput: string,
): Promise<{ id: string }> {
  const charity = await requireCharity(deps.db, inviter.userId, { owner: true });
  const email = emailInput.trim().toLowerCase();
  const member = await deps.db
    .selectFrom('auth.users as u')
    .innerJoin('charity_members as m', 'm.user_id', 'u.id')
    .select('m.charity_id')
    .where(sql`lower(u.email)`, '=', email)
    .executeTakeFirst();
  if (member) {
    throw new AppError(
      'CONFLICT',
      member.charity_id === charity.charityId
        ? 'That person is already a member of your charity.'
        : 'That person already sells for another charity on Reshelf.',
      { field: 'email' },
    );
  }
  const inviterProfile = await deps.db
    .selectFrom('profiles')
    .select('display_name')
    .where('id', '=', inviter.userId)
    .executeTakeFirst();
  const mail = charityMail.invited({
    charityName: charity.name,
    inviterName: inviterProfile?.display_name ?? charity.name,
    url: `${deps.origin}/charity/dashboard`,
  });
  let invitation: { id: string };
  try {
    // The invitation and its email: all or nothing.
    invitation = await deps.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('charity_invitations')
        .values({ charity_id: charity.charityId, email, invited_by: inviter.userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await deps.mailer.send({ to: email, ...mail, template: 'charity-invited' }, { trx });
      // Someone with an account already hears of it in the app too.
      const invitee = await trx
        .selectFrom('auth.users')
        .select('id')
        .where(sql`lower(email)`, '=', email)
        .executeTakeFirst();
      if (invitee) {
        await notify(trx, {
          userId: invitee.id,
          kind: 'team_invitation',
          title: mail.subject,
          body: `${inviterProfile?.display_name ?? charity.name} has invited you to join ${charity.name} on Reshelf, to list and manage its books. Accept on the charity dashboard.`,
          link: '/charity/dashboard',
          charityId: charity.charityId,
        });
      }
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'charity_invitations_open')) {
      throw new AppError('CONFLICT', 'You have already invited that address: the invitation is waiting.', {
        field: 'email',
      });
    }
    throw error;
  }
  return invitation;
}

export async function revokeInvitation(db: Database, userId: string, invitationId: string): Promise<void> {
  const charity = await requireCharity(db, userId, { owner: true });
  const result = await db
    .updateTable('charity_invitations')
    .set({ revoked_at: new Date() })
    .where('id', '=', invitationId)
    .where('charity_id', '=', charity.charityId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0)
    throw new AppError('NOT_FOUND', 'That invitation is no longer open.');
}

/** The owner removes a staff member (never themselves). */
export async function removeMember(db: Database, userId: string, memberId: string): Promise<void> {
  const charity = await requireCharity(db, userId, { owner: true });
  const result = await db
    .deleteFrom('charity_members')
    .where('charity_id', '=', charity.charityId)
    .where('user_id', '=', memberId)
    .where('role', '=', 'staff')
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) {
    throw new AppError('NOT_FOUND', 'That person is not on your charity’s staff.');
  }
}

/** Invitations waiting for the caller's email address (none once they belong to a charity). */
export async function myInvitations(db: Database, user: { userId: string; email: string }) {
  if (await membershipOf(db, user.userId)) return [] as CharityInvitation[];
  const rows = await db
    .selectFrom('charity_invitations as i')
    .innerJoin('charities as c', 'c.id', 'i.charity_id')
    .leftJoin('profiles as p', 'p.id', 'i.invited_by')
    .select(['i.id', 'c.name', 'p.display_name', 'i.created_at'])
    .where('i.email', '=', user.email.toLowerCase())
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('c.status', '<>', 'rejected')
    .orderBy('i.created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    charityName: row.name,
    invitedBy: row.display_name,
    createdAt: row.created_at.toISOString(),
  }));
}

export async function acceptInvitation(
  db: Database,
  user: { userId: string; email: string },
  invitationId: string,
): Promise<MyCharity> {
  await db.transaction().execute(async (trx) => {
    const invitation = await trx
      .selectFrom('charity_invitations')
      .selectAll()
      .where('id', '=', invitationId)
      .forUpdate()
      .executeTakeFirst();
    if (
      !invitation ||
      invitation.email !== user.email.toLowerCase() ||
      invitation.accepted_at ||
      invitation.revoked_at
    ) {
      throw new AppError(
        'NOT_FOUND',
        'That invitation is no longer open. Ask the charity’s owner to invite you again.',
      );
    }
    const already = await trx
      .selectFrom('charity_members')
      .select('charity_id')
      .where('user_id', '=', user.userId)
      .executeTakeFirst();
    if (already) throw new AppError('CONFLICT', 'You already belong to a charity on Reshelf.');
    await trx
      .insertInto('charity_members')
      .values({
        charity_id: invitation.charity_id,
        user_id: user.userId,
        role: 'staff',
        invited_by: invitation.invited_by,
      })
      .execute();
    await trx
      .updateTable('charity_invitations')
      .set({ accepted_at: new Date(), accepted_by: user.userId })
      .where('id', '=', invitation.id)
      .execute();
  });
  return myCharity(db, user.userId);
}

// Selling for the charity --------------------------------------------------------------------

/**
 * The sell wizard's first step on behalf of the charity: the wizard's own start (catalogue
 * book, Open Library, or an ISBN kept until the details are typed), then the draft is marked
 * as the charity's, with the donor reference when one is given. The rest of the wizard is the
 * same as for anyone; the database refuses to put it on sale unless the charity is approved.
 */
export async function startCharityListing(
  db: Database,
  lookup: BookLookupPort,
  userId: string,
  input: { isbn: string | null; donorReference: string | null },
): Promise<StartResult> {
  const charity = await requireCharity(db, userId, { approved: true });
  const started = await startListing(db, lookup, userId, input.isbn);
  await db
    .updateTable('listings')
    .set({
      charity_id: charity.charityId,
      ...(input.donorReference !== null ? { donor_reference: input.donorReference } : {}),
    })
    .where('id', '=', started.listing.id)
    .where('status', '=', 'draft')
    .execute();
  return started;
}

/** The caller's charity shop's bundle tiers: any member of its team may read them. */
export async function getCharityTiers(db: Database, userId: string): Promise<BundleTiersView> {
  const charity = await requireCharity(db, userId);
  return getTiers(db, { charityId: charity.charityId });
}

/** The caller's charity shop's bundle tiers: only the owner sets the shop's prices. */
export async function setCharityTiers(
  db: Database,
  userId: string,
  tiers: Parameters<typeof setTiers>[2],
): Promise<BundleTiersView> {
  const charity = await requireCharity(db, userId, { owner: true });
  return setTiers(db, { charityId: charity.charityId }, tiers);
}
