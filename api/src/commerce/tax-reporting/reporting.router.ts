/**
 * UK digital platform reporting (decision 0047): the seller's own standing and details
 * (`reporting.member`), and the annual report for HMRC (`reporting.staff`, admins only: it holds
 * National Insurance numbers and dates of birth).
 */
import {
  REPORTING_CSV_COLUMNS,
  reportingCopySchema,
  reportingDetailsInputSchema,
  reportingFileInputSchema,
  reportingFilingSchema,
  reportingMissingRowSchema,
  reportingStatusSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { recordAudit } from '../../platform/audit/audit.service.ts';
import { adminProcedure, authedProcedure, router } from '../../trpc.ts';
import { fileYear, reportingFilings, sellerCopies, sellerCopy } from './filing.service.ts';
import {
  annualReport,
  annualReportCsv,
  missingDetails,
  reportingStatus,
  saveReportingDetails,
  ukYear,
} from './reporting.service.ts';

export const reportingMemberRouter = router({
  /** This year's sales and consideration against the threshold, and the details given. */
  status: authedProcedure
    .input(z.object({}).optional())
    .output(reportingStatusSchema)
    .query(({ ctx }) => reportingStatus(ctx.db, ctx.user.userId)),

  /** Gives (or corrects) the details HMRC reporting needs; releases a reporting hold on payouts. */
  saveDetails: authedProcedure
    .input(reportingDetailsInputSchema)
    .output(reportingStatusSchema)
    .mutation(({ ctx, input }) => saveReportingDetails(ctx.deps, ctx.user.userId, input)),

  /** The years the member was reported to HMRC for (their copies), newest first. */
  copies: authedProcedure
    .input(z.object({}).optional())
    .output(z.array(z.object({ year: z.number().int(), filedAt: z.string() })))
    .query(({ ctx }) => sellerCopies(ctx.db, ctx.user.userId)),

  /** The member's copy of what was reported for a filed year (read from the snapshot; NI number masked). */
  copy: authedProcedure
    .input(reportingFileInputSchema)
    .output(reportingCopySchema)
    .query(({ ctx, input }) => sellerCopy(ctx.db, ctx.user.userId, input.year)),
});

const yearInput = z.object({
  year: z
    .number({ error: 'Choose a year' })
    .int('Choose a whole year')
    .min(2000, 'Choose a year from 2000')
    .max(2200, 'Choose a year before 2200'),
});

const quarterSchema = z.object({
  sales: z.number().int(),
  considerationMinor: z.number().int(),
  feesMinor: z.number().int(),
});

export const reportingStaffRouter = router({
  /** This year and the last with their deadlines and days left, and each year filed: who, when, how many sellers (admins). */
  filings: adminProcedure
    .input(z.object({}).optional())
    .output(z.array(reportingFilingSchema))
    .query(({ ctx }) => reportingFilings(ctx.db)),

  /** Files an ended year once: freezes each reported seller's row and sends each their copy (audited). */
  file: adminProcedure
    .input(reportingFileInputSchema)
    .output(reportingFilingSchema)
    .mutation(async ({ ctx, input }) => {
      const filing = await fileYear(ctx.deps, { year: input.year, staffId: ctx.user.userId });
      await recordAudit(ctx.db, {
        action: 'reporting.file',
        targetType: 'reporting_year',
        targetId: String(input.year),
        details: { sellers: filing.sellers },
      });
      return filing;
    }),

  /** Who is missing what this year: reportable or nearly reportable sellers without details (admins). */
  missing: adminProcedure
    .input(yearInput)
    .output(z.array(reportingMissingRowSchema))
    .query(({ ctx, input }) => missingDetails(ctx.db, input.year)),

  /** The year's reportable sellers: those whose details are missing first. */
  report: adminProcedure
    .input(yearInput)
    .output(
      z.object({
        year: z.number().int(),
        currentYear: z.number().int(),
        rows: z.array(
          z.object({
            sellerId: z.string(),
            email: z.string().nullable(),
            sellerType: z.enum(['individual', 'charity', 'company', 'unknown']),
            detailsProvided: z.boolean(),
            totals: quarterSchema,
            quarters: z.array(quarterSchema),
          }),
        ),
      }),
    )
    .query(async ({ ctx, input }) => {
      const rows = await annualReport(ctx.db, input.year);
      return {
        year: input.year,
        currentYear: ukYear(new Date()),
        rows: rows.map(({ cells: _cells, ...row }) => row),
      };
    }),

  /** The annual report as CSV in the required fields (recorded in the audit log: it is personal data). */
  exportCsv: adminProcedure
    .input(yearInput)
    .output(z.object({ filename: z.string(), columns: z.array(z.string()), csv: z.string() }))
    .query(async ({ ctx, input }) => {
      const { csv, rows } = await annualReportCsv(ctx.db, input.year);
      await recordAudit(ctx.db, {
        action: 'reporting.export',
        targetType: 'reporting_year',
        targetId: String(input.year),
        details: { rows },
      });
      return {
        filename: `reshelf-hmrc-platform-report-${input.year}.csv`,
        columns: [...REPORTING_CSV_COLUMNS],
        csv,
      };
    }),
});
