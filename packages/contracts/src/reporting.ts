/**
 * UK digital platform reporting (decision 0047). A platform operator reports each seller's
 * income to HMRC once a year, unless the seller is an "excluded seller": fewer than 30 sales
 * AND total consideration of no more than €2,000 in the calendar year. Before a seller passes
 * that, Reshelf asks for the details the rules require, and holds further payouts until given.
 */
import { z } from 'zod';
import { parseCompanyNumber } from './business-sellers.ts';
import { postcodeSchema } from './checkout.ts';

/** A seller with this many sales in a calendar year is reportable. */
export const REPORTING_SALES_THRESHOLD = 30;
/** A seller whose consideration in a calendar year is more than this (euros) is reportable. */
export const REPORTING_CONSIDERATION_THRESHOLD_EUR = 2000;
/**
 * Pence per euro used to turn the €2,000 threshold into pounds: 86p, the HMRC monthly exchange
 * rate for euros rounded down to the penny at the time of writing. The rules let an operator
 * use a reasonable fixed rate for the year; review it each January (decision 0047). A seller is
 * asked for their details well before the threshold, so a few pence either way change nothing.
 */
export const REPORTING_EUR_TO_PENCE = 86;
/** The €2,000 threshold in pence (£1,720.00 at 86p to the euro). */
export const REPORTING_CONSIDERATION_THRESHOLD_MINOR =
  REPORTING_CONSIDERATION_THRESHOLD_EUR * REPORTING_EUR_TO_PENCE;
/** Ask for the details from this many sales in the year, before the threshold is reached. */
export const REPORTING_ASK_AT_SALES = 25;
/** …or from this much consideration (75% of the threshold). */
export const REPORTING_ASK_AT_MINOR = Math.floor((REPORTING_CONSIDERATION_THRESHOLD_MINOR * 3) / 4);

/** True when a seller's year makes them reportable (no longer an excluded seller). */
export function isReportable(sales: number, considerationMinor: number): boolean {
  return sales >= REPORTING_SALES_THRESHOLD || considerationMinor > REPORTING_CONSIDERATION_THRESHOLD_MINOR;
}

/** True when a seller's year is close enough to the threshold to ask for their details. */
export function shouldAskForDetails(sales: number, considerationMinor: number): boolean {
  return sales >= REPORTING_ASK_AT_SALES || considerationMinor >= REPORTING_ASK_AT_MINOR;
}

// Details ----------------------------------------------------------------------------------------

/** National Insurance number: two letters, six digits, A–D (HMRC's rules for the prefix). */
export function parseNino(input: string): string | null {
  const value = input.toUpperCase().replace(/\s+/g, '');
  if (!/^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(value)) return null;
  if (['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'].includes(value.slice(0, 2))) return null;
  return value;
}

/** Unique Taxpayer Reference: 10 digits (written with spaces or a trailing K sometimes). */
export function parseUtr(input: string): string | null {
  const value = input.toUpperCase().replace(/\s+/g, '').replace(/K$/, '');
  return /^\d{10}$/.test(value) ? value : null;
}

const text = (max: number, missing: string) =>
  z.string().trim().min(1, missing).max(max, `Use at most ${max} characters`);
const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Use at most ${max} characters`)
    .optional()
    .transform((value) => (value ? value : null));

const addressFields = {
  addressLine1: text(100, 'Enter the first line of the address'),
  addressLine2: optional(100),
  town: text(80, 'Enter the town or city'),
  postcode: postcodeSchema,
};

/** A date of birth: a real date, in the past, the person at least 16. */
export const dateOfBirthSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter your date of birth, like 1990-04-21')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'Enter a real date of birth')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    const sixteen = new Date();
    sixteen.setUTCFullYear(sixteen.getUTCFullYear() - 16);
    return date.getUTCFullYear() >= 1900 && date <= sixteen;
  }, 'Enter a date of birth at least 16 years ago');

/** An individual seller: name, date of birth, address and NI number or UTR. */
export const individualReportingDetailsSchema = z
  .object({
    kind: z.literal('individual'),
    firstName: text(100, 'Enter your first name'),
    lastName: text(100, 'Enter your last name'),
    dateOfBirth: dateOfBirthSchema,
    ...addressFields,
    nino: optional(20),
    utr: optional(20),
  })
  .superRefine((value, ctx) => {
    if (!value.nino && !value.utr) {
      ctx.addIssue({
        code: 'custom',
        path: ['nino'],
        message: 'Enter your National Insurance number or your Unique Taxpayer Reference (UTR)',
      });
    }
    if (value.nino && !parseNino(value.nino)) {
      ctx.addIssue({
        code: 'custom',
        path: ['nino'],
        message: 'Enter a National Insurance number like AB 12 34 56 C',
      });
    }
    if (value.utr && !parseUtr(value.utr)) {
      ctx.addIssue({ code: 'custom', path: ['utr'], message: 'Enter a UTR of 10 digits, like 12345 67890' });
    }
  })
  .transform((value) => ({
    ...value,
    nino: value.nino ? parseNino(value.nino) : null,
    utr: value.utr ? parseUtr(value.utr) : null,
  }));

/** A charity: its registered name, number and address (and its UTR, if it has one). */
export const charityReportingDetailsSchema = z
  .object({
    kind: z.literal('charity'),
    legalName: text(200, 'Enter the charity’s registered name'),
    registeredNumber: text(20, 'Enter the charity’s registered number'),
    ...addressFields,
    utr: optional(20),
  })
  .superRefine((value, ctx) => {
    if (value.utr && !parseUtr(value.utr)) {
      ctx.addIssue({ code: 'custom', path: ['utr'], message: 'Enter a UTR of 10 digits, like 12345 67890' });
    }
  })
  .transform((value) => ({ ...value, utr: value.utr ? parseUtr(value.utr) : null }));

/**
 * A company (a business seller trading as one, decision 0073): its legal name, Companies House
 * number and registered address, and its UTR if it has one.
 */
export const companyReportingDetailsSchema = z
  .object({
    kind: z.literal('company'),
    legalName: text(200, 'Enter the company’s legal name, as at Companies House'),
    companyNumber: text(20, 'Enter the company number'),
    ...addressFields,
    utr: optional(20),
  })
  .superRefine((value, ctx) => {
    if (!parseCompanyNumber(value.companyNumber)) {
      ctx.addIssue({
        code: 'custom',
        path: ['companyNumber'],
        message: 'Enter a Companies House number: 8 digits, or 2 letters and 6 digits (like SC123456)',
      });
    }
    if (value.utr && !parseUtr(value.utr)) {
      ctx.addIssue({ code: 'custom', path: ['utr'], message: 'Enter a UTR of 10 digits, like 12345 67890' });
    }
  })
  .transform((value) => ({
    ...value,
    companyNumber: parseCompanyNumber(value.companyNumber) as string,
    utr: value.utr ? parseUtr(value.utr) : null,
  }));

export const reportingDetailsInputSchema = z.discriminatedUnion('kind', [
  individualReportingDetailsSchema,
  charityReportingDetailsSchema,
  companyReportingDetailsSchema,
]);
export type ReportingDetailsInput = z.input<typeof reportingDetailsInputSchema>;
export type ReportingDetails = z.output<typeof reportingDetailsInputSchema>;

/**
 * Where a seller stands this year: not needed yet; asked (close to the threshold, payouts go on);
 * required (reportable, no details: further payouts held); provided.
 */
export const REPORTING_STATES = ['not_needed', 'asked', 'required', 'provided'] as const;
export type ReportingState = (typeof REPORTING_STATES)[number];

export const reportingStatusSchema = z.object({
  year: z.number().int(),
  state: z.enum(REPORTING_STATES),
  sales: z.number().int(),
  considerationMinor: z.number().int(),
  salesThreshold: z.number().int(),
  considerationThresholdMinor: z.number().int(),
  isCharity: z.boolean(),
  /** The details given (the NI number and UTR shown only by their last characters). */
  details: z
    .object({
      kind: z.enum(['individual', 'charity', 'company']),
      name: z.string(),
      dateOfBirth: z.string().nullable(),
      address: z.string(),
      taxReference: z.string().nullable(),
      providedAt: z.string(),
    })
    .nullable(),
  /** For a charity: its registered details, to fill the form. */
  charity: z
    .object({
      legalName: z.string(),
      registeredNumber: z.string(),
      addressLine1: z.string().nullable(),
      addressLine2: z.string().nullable(),
      town: z.string().nullable(),
      postcode: z.string().nullable(),
    })
    .nullable(),
});
export type ReportingStatus = z.infer<typeof reportingStatusSchema>;

/** The annual report's columns, in order (the CSV staff export and send to HMRC). */
export const REPORTING_CSV_COLUMNS = [
  'reporting_year',
  'seller_id',
  'seller_type',
  'first_name',
  'last_name',
  'legal_name',
  'date_of_birth',
  'address_line1',
  'address_line2',
  'town',
  'postcode',
  'country',
  'tin',
  'tin_type',
  'tin_issued_by',
  'business_registration_number',
  'financial_account_identifier',
  'q1_consideration_gbp',
  'q1_sales',
  'q1_fees_gbp',
  'q2_consideration_gbp',
  'q2_sales',
  'q2_fees_gbp',
  'q3_consideration_gbp',
  'q3_sales',
  'q3_fees_gbp',
  'q4_consideration_gbp',
  'q4_sales',
  'q4_fees_gbp',
  'total_consideration_gbp',
  'total_sales',
  'details_provided',
] as const;

/**
 * What the rules require of a seller, by kind (SI 2023/817): what staff see as missing until a
 * seller gives their details (the database takes them only complete).
 */
export const REPORTING_REQUIRED_FIELDS = {
  individual: ['name', 'date of birth', 'address', 'National Insurance number or UTR'],
  entity: ['legal name', 'address', 'company or charity number'],
} as const;

/** A seller this year who is reportable, or close to it, without details: what is missing, when asked. */
export const reportingMissingRowSchema = z.object({
  sellerId: z.string(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  /** Past the threshold (not an excluded seller); else close to it. */
  reportable: z.boolean(),
  sales: z.number().int(),
  considerationMinor: z.number().int(),
  /** An entity (a charity's member, a business seller that is a company) or an individual. */
  kind: z.enum(['individual', 'entity']),
  missing: z.array(z.string()),
  askedAt: z.string().nullable(),
  heldNoticeAt: z.string().nullable(),
  payoutsHeld: z.boolean(),
});
export type ReportingMissingRow = z.infer<typeof reportingMissingRowSchema>;

// The year's dates and the records kept (decision 0078) ----------------------------------------

/**
 * The reporting calendar (SI 2023/817): a seller's details are collected by 31 December of the
 * reporting year; the report goes to HMRC, and each seller gets their copy, by 31 January after.
 * Months are 1–12.
 */
export const REPORTING_DATES = {
  collectBy: { month: 12, day: 31, label: '31 December' },
  reportBy: { month: 1, day: 31, label: '31 January' },
} as const;

/** Reporting records (the filed snapshots and the details they were built from) are kept this many years after the reporting year ends. */
export const REPORTING_RETENTION_YEARS = 5;

/** The deadlines of a reporting year, as ISO dates: collect by its 31 December, report by the next 31 January. */
export function reportingDeadlines(year: number): { collectBy: string; reportBy: string } {
  const iso = (y: number, m: number, d: number) =>
    `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const { collectBy, reportBy } = REPORTING_DATES;
  return {
    collectBy: iso(year, collectBy.month, collectBy.day),
    reportBy: iso(year + 1, reportBy.month, reportBy.day),
  };
}

/** Whole days from `today` (an ISO date) to `deadline` (an ISO date); negative once it has passed. */
export function daysUntil(today: string, deadline: string): number {
  return Math.round((Date.parse(`${deadline}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** The last calendar year a reporting year's records are kept in; they are purged from the 1 January after. */
export function reportingKeptUntilYear(year: number): number {
  return year + REPORTING_RETENTION_YEARS;
}

/** Filing a year: the year (ended) being filed. */
export const reportingFileInputSchema = z.object({
  year: z
    .number({ error: 'Choose a year' })
    .int('Choose a whole year')
    .min(2000, 'Choose a year from 2000')
    .max(2200, 'Choose a year before 2200'),
});

/** A year's filing, as staff see it: who filed, when, how many sellers; and its deadlines. */
export const reportingFilingSchema = z.object({
  year: z.number().int(),
  collectBy: z.string(),
  reportBy: z.string(),
  daysToReport: z.number().int(),
  filedAt: z.string().nullable(),
  filedBy: z.string().nullable(),
  sellers: z.number().int().nullable(),
});
export type ReportingFiling = z.infer<typeof reportingFilingSchema>;

const quarterCopySchema = z.object({
  quarter: z.number().int(),
  sales: z.number().int(),
  considerationMinor: z.number().int(),
  feesMinor: z.number().int(),
});

/**
 * A seller's own copy of what was reported for a year: the same fields HMRC got, read from the
 * frozen snapshot, the NI number and UTR shown only by their last characters.
 */
export const reportingCopySchema = z.object({
  year: z.number().int(),
  filedAt: z.string(),
  sellerType: z.string(),
  name: z.string(),
  dateOfBirth: z.string().nullable(),
  businessRegistrationNumber: z.string().nullable(),
  address: z.string(),
  taxReference: z.string().nullable(),
  financialAccountIdentifier: z.string().nullable(),
  quarters: z.array(quarterCopySchema),
  totalSales: z.number().int(),
  totalConsiderationMinor: z.number().int(),
  totalFeesMinor: z.number().int(),
  keptUntilYear: z.number().int(),
});
export type ReportingCopy = z.infer<typeof reportingCopySchema>;
