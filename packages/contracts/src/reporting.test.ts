import { describe, expect, it } from 'vitest';
import {
  daysUntil,
  isReportable,
  parseNino,
  parseUtr,
  REPORTING_ASK_AT_MINOR,
  REPORTING_CONSIDERATION_THRESHOLD_MINOR,
  REPORTING_DATES,
  REPORTING_RETENTION_YEARS,
  reportingDeadlines,
  reportingDetailsInputSchema,
  reportingKeptUntilYear,
  shouldAskForDetails,
} from './reporting.ts';

describe('platform reporting thresholds', () => {
  it('is €2,000 at 86p to the euro, asked for at three quarters of it or 25 sales', () => {
    expect(REPORTING_CONSIDERATION_THRESHOLD_MINOR).toBe(172_000);
    expect(REPORTING_ASK_AT_MINOR).toBe(129_000);
    expect(isReportable(29, 172_000)).toBe(false);
    expect(isReportable(30, 0)).toBe(true);
    expect(isReportable(1, 172_001)).toBe(true);
    expect(shouldAskForDetails(24, 128_999)).toBe(false);
    expect(shouldAskForDetails(25, 0)).toBe(true);
    expect(shouldAskForDetails(0, 129_000)).toBe(true);
  });
});

describe('tax references', () => {
  it('accepts National Insurance numbers in HMRC’s format, spaced or not, and no others', () => {
    expect(parseNino('ab 12 34 56 c')).toBe('AB123456C');
    expect(parseNino('QQ123456C')).toBeNull();
    expect(parseNino('GB123456A')).toBeNull();
    expect(parseNino('AB123456E')).toBeNull();
    expect(parseNino('AB12345C')).toBeNull();
  });

  it('accepts a 10-digit UTR, with spaces or a trailing K', () => {
    expect(parseUtr('12345 67890')).toBe('1234567890');
    expect(parseUtr('1234567890K')).toBe('1234567890');
    expect(parseUtr('123456789')).toBeNull();
  });

  it('normalises an individual’s details and needs an NI number or a UTR', () => {
    const base = {
      kind: 'individual',
      firstName: ' Jo ',
      lastName: 'March',
      dateOfBirth: '1990-04-21',
      addressLine1: '1 Orchard House',
      town: 'Bath',
      postcode: 'ba11aa',
    };
    expect(reportingDetailsInputSchema.parse({ ...base, nino: 'ab123456c' })).toMatchObject({
      firstName: 'Jo',
      postcode: 'BA1 1AA',
      nino: 'AB123456C',
      utr: null,
      addressLine2: null,
    });
    const missing = reportingDetailsInputSchema.safeParse(base);
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((issue) => issue.message)).toContain(
      'Enter your National Insurance number or your Unique Taxpayer Reference (UTR)',
    );
  });
});

describe('the reporting calendar and retention (decision 0078)', () => {
  it('collects by 31 December of the year and reports by 31 January after', () => {
    expect(reportingDeadlines(2026)).toEqual({ collectBy: '2026-12-31', reportBy: '2027-01-31' });
    expect(REPORTING_DATES.collectBy.label).toBe('31 December');
    expect(REPORTING_DATES.reportBy.label).toBe('31 January');
  });

  it('counts whole days to a deadline, negative once it has passed, across a clock change', () => {
    expect(daysUntil('2027-01-30', '2027-01-31')).toBe(1);
    expect(daysUntil('2027-01-31', '2027-01-31')).toBe(0);
    expect(daysUntil('2027-02-02', '2027-01-31')).toBe(-2);
    expect(daysUntil('2026-10-20', '2026-11-01')).toBe(12);
  });

  it('keeps a year’s records through the fifth year after it', () => {
    expect(REPORTING_RETENTION_YEARS).toBe(5);
    expect(reportingKeptUntilYear(2026)).toBe(2031);
  });
});
