/**
 * Selling as a charity. /charity/sell: the sell wizard on behalf of the charity (its first
 * step here, with an optional donor reference; the rest is the wizard everyone uses).
 * /charity/bulk-listing: a CSV of books uploaded at once, listed in batches with progress, and
 * a row-by-row report with the rows to correct as a CSV to upload again.
 */
import {
  BULK_COLUMNS,
  BULK_LIMITS,
  BULK_MESSAGES,
  BULK_ROW_STATUS_LABELS,
  BULK_TEMPLATE_CSV,
  type BulkImport,
  CHARITY_IMPORT_PATH,
  countOf,
  DONOR_REFERENCE_PATTERN,
  normaliseIsbn,
} from '@reshelf/contracts';
import { Download, FileUp, HeartHandshake } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FairPriceLine, useListingFairPrices } from '../commerce/index.ts';
import { useIsbnDemand } from '../community/index.ts';
import { PageBody, PageHeader } from '../components/PageHeader.tsx';
import { PageSkeleton } from '../components/placeholders.tsx';
import { QueryError } from '../components/QueryError.tsx';
import { Alert } from '../components/ui/alert.tsx';
import { Button } from '../components/ui/button.tsx';
import { Input } from '../components/ui/input.tsx';
import { notify } from '../components/ui/notify.ts';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { TableScroll } from '../kit/index.ts';
import { apiErrorMessage } from '../lib/api-errors.ts';
import { saveCsv } from '../lib/download.ts';
import { usePageMeta } from '../lib/page-meta.ts';
import { trpc } from '../lib/trpc.ts';
import { UploadError, uploadFile } from '../lib/upload.ts';
import { cn } from '../lib/utils.ts';
import { IsbnForm } from '../selling/index.ts';

const linkClass = 'font-semibold text-brand underline-offset-4 hover:underline';
const sectionClass = 'rounded-2xl border border-line bg-paper p-5 shadow-card sm:p-6';

/** The page's frame once the person's charity may sell; otherwise where it stands. */
function ApprovedCharity({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: (name: string) => ReactNode;
}) {
  const mine = trpc.charities.mine.useQuery();
  if (mine.isPending) return <PageSkeleton />;
  const charity = mine.data;
  return (
    <>
      <PageHeader
        title={title}
        description={charity?.status === 'approved' ? description : undefined}
        crumbs={[{ to: '/charity/dashboard', label: 'Charity dashboard' }]}
      />
      <PageBody>
        {mine.isError ? (
          <QueryError what="your charity" onRetry={() => mine.refetch()} retrying={mine.isFetching} />
        ) : !charity ? (
          <Alert title="This is for charities">
            Sell as a charity once your charity is registered on Reshelf.{' '}
            <Link to="/charity/signup" className={linkClass}>
              Register your charity
            </Link>{' '}
            or ask its owner to invite you.
          </Alert>
        ) : charity.status !== 'approved' ? (
          <Alert title={charity.status === 'pending' ? 'Waiting for approval' : 'Not approved'}>
            {charity.status === 'pending'
              ? 'You can list books once our team has approved your charity (usually within two working days).'
              : charity.rejectionReason}{' '}
            <Link to="/charity/dashboard" className={linkClass}>
              Back to the dashboard
            </Link>
          </Alert>
        ) : (
          children(charity.name)
        )}
      </PageBody>
    </>
  );
}

export function CharitySellPage() {
  usePageMeta('Sell a book for your charity');
  const start = trpc.charities.startListing.useMutation();
  const [donor, setDonor] = useState('');
  const id = useId();
  const donorOk = donor.trim() === '' || DONOR_REFERENCE_PATTERN.test(donor.trim());
  return (
    <ApprovedCharity
      title="Sell a donated book"
      description="Type the ISBN and we fill in the rest. The listing sells for your charity, with 14-day returns for the buyer."
    >
      {(name) => (
        <div className="grid gap-8 md:grid-cols-[minmax(0,26rem)_1fr]">
          <div className={sectionClass}>
            <p
              className="mb-4 inline-flex items-center gap-2 text-sm font-semibold text-moss"
              data-testid="selling-for"
            >
              <HeartHandshake aria-hidden="true" className="size-4" />
              Selling for {name}
            </p>
            <div className="mb-5 flex flex-col gap-1.5">
              <label htmlFor={`${id}-donor`} className="text-sm font-semibold">
                Donor reference <span className="font-normal text-ink-muted">(optional, for Gift Aid)</span>
              </label>
              <Input
                id={`${id}-donor`}
                value={donor}
                maxLength={40}
                aria-invalid={!donorOk}
                onChange={(event) => setDonor(event.target.value)}
                placeholder="D-00123"
                data-testid="donor-reference"
              />
              {!donorOk ? (
                <p className="text-sm font-medium text-destructive">{BULK_MESSAGES.donorReference}</p>
              ) : null}
            </div>
            <IsbnForm
              startWith={(isbn) => {
                if (!donorOk) return Promise.reject(new Error(BULK_MESSAGES.donorReference));
                return start.mutateAsync({ isbn, donorReference: donor.trim() || null });
              }}
            />
          </div>
          <div className="flex flex-col gap-3 text-ink-soft">
            <h2 className="text-xl font-semibold text-ink">A box of donations?</h2>
            <p>
              List many books at once from a spreadsheet: ISBN, condition and price for each, with a donor
              reference where you have one.
            </p>
            <p>
              <Link to="/charity/bulk-listing" className={linkClass}>
                Bulk-list from a CSV
              </Link>
            </p>
          </div>
        </div>
      )}
    </ApprovedCharity>
  );
}

// Bulk listing --------------------------------------------------------------------------------

export function BulkListingPage() {
  usePageMeta('Bulk-list books from a CSV');
  const [search, setSearch] = useSearchParams();
  const importId = search.get('import');
  const utils = trpc.useUtils();
  const [upload, setUpload] = useState<{ name: string; progress: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  const send = async (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    if (file.size > BULK_LIMITS.maxFileBytes) {
      setProblem(BULK_MESSAGES.tooBig);
      return;
    }
    setUpload({ name: file.name, progress: 0 });
    try {
      const created = await uploadFile<BulkImport>(CHARITY_IMPORT_PATH, file, {
        fallbackMessage: BULK_MESSAGES.notCsv,
        onProgress: (progress) => setUpload({ name: file.name, progress }),
      });
      utils.charities.importStatus.setData({ importId: created.id }, created);
      void utils.charities.imports.invalidate();
      if (created.repeated) notify.info('You uploaded this file before: here is its report.');
      setSearch({ import: created.id });
    } catch (error) {
      setProblem(error instanceof UploadError ? error.message : BULK_MESSAGES.notCsv);
    } finally {
      setUpload(null);
    }
  };

  const picker = (label: string) => (
    <label className="inline-flex cursor-pointer">
      <input
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        data-testid="csv-input"
        disabled={upload !== null}
        onChange={(event) => {
          void send(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <span className="inline-flex h-11 items-center gap-2 rounded-lg bg-brand px-5 font-semibold text-brand-foreground hover:bg-brand-hover">
        <FileUp aria-hidden="true" className="size-4" />
        {label}
      </span>
    </label>
  );

  return (
    <ApprovedCharity
      title="Bulk-list books from a CSV"
      description={`Up to ${BULK_LIMITS.maxRows.toLocaleString('en-GB')} books in one file. Every row is checked; good rows go on sale and the others come back to you to correct.`}
    >
      {() => (
        <div className="flex flex-col gap-8">
          <section aria-labelledby={`${id}-how`} className={sectionClass}>
            <h2 id={`${id}-how`} className="text-xl font-semibold">
              1. Fill in the template
            </h2>
            <p className="mt-2 text-ink-soft">
              One row per book. Save your spreadsheet as “CSV (comma delimited)”.
            </p>
            <TableScroll label="Rows read from the file" className="mt-3">
              <table className="w-full min-w-[32rem] text-left text-sm">
                <thead>
                  <tr className="border-b border-line text-ink-muted">
                    <th className="py-2 font-semibold">Column</th>
                    <th className="py-2 font-semibold">What to write</th>
                  </tr>
                </thead>
                <tbody>
                  {BULK_COLUMNS.map((column) => (
                    <tr key={column.key} className="border-b border-line/60">
                      <td className="py-2 font-mono text-xs">
                        {column.key}
                        {column.required ? '' : ' (optional)'}
                      </td>
                      <td className="py-2">{column.hint}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <Button
              variant="outline"
              className="mt-4"
              onClick={() => saveCsv('reshelf-bulk-listing-template.csv', BULK_TEMPLATE_CSV)}
            >
              <Download aria-hidden="true" />
              Download the template
            </Button>
          </section>

          <section aria-labelledby={`${id}-upload`} className={sectionClass}>
            <h2 id={`${id}-upload`} className="text-xl font-semibold">
              2. Upload it
            </h2>
            <div className="mt-4 flex flex-wrap items-center gap-4">
              {picker(importId ? 'Upload another file' : 'Choose a CSV file')}
              {upload ? (
                <span className="text-sm text-ink-muted" aria-live="polite">
                  Sending {upload.name}… {Math.round(upload.progress * 100)}%
                </span>
              ) : null}
            </div>
            {problem ? (
              <Alert tone="error" className="mt-4" data-testid="upload-error">
                {problem}
              </Alert>
            ) : null}
          </section>

          {importId ? <ImportReport importId={importId} /> : null}
        </div>
      )}
    </ApprovedCharity>
  );
}

const FILTERS = [
  { key: 'all', label: 'All rows' },
  { key: 'problems', label: 'To correct' },
  { key: 'listed', label: 'Listed' },
  { key: 'draft', label: 'Drafts' },
] as const;

function ImportReport({ importId }: { importId: string }) {
  const status = trpc.charities.importStatus.useQuery(
    { importId },
    { refetchInterval: (query) => (query.state.data?.status === 'done' ? false : 1000), staleTime: 0 },
  );
  const [filter, setFilter] = useState<(typeof FILTERS)[number]['key']>('all');
  const [page, setPage] = useState(1);
  const done = status.data?.status === 'done';
  const report = trpc.charities.importReport.useQuery(
    { importId, filter, page, pageSize: 50 },
    { enabled: done, staleTime: 0 },
  );
  // How many readers want each row's book (decision 0088), for the page of rows in one request.
  const demand = useIsbnDemand(report.data?.rows.map((row) => row.isbn) ?? []);
  // Each row's suggested price from Reshelf's own sales (commerce's fair price), one request a page.
  const fairPrices = useListingFairPrices(
    (report.data?.rows ?? []).flatMap((row) => (row.listingId ? [row.listingId] : [])),
  );
  const utils = trpc.useUtils();
  const [downloading, setDownloading] = useState(false);
  if (status.isPending) return <Skeleton className="h-40 rounded-2xl" />;
  if (status.isError) {
    return <QueryError what="this upload" onRetry={() => status.refetch()} retrying={status.isFetching} />;
  }
  const item = status.data;
  const toCorrect = item.invalidRows + item.failedRows;
  const fraction = item.totalRows ? item.processedRows / item.totalRows : 1;

  const corrections = async () => {
    setDownloading(true);
    try {
      const file = await utils.charities.importCorrections.fetch({ importId });
      saveCsv(file.fileName, file.csv);
    } catch (error) {
      notify.error(apiErrorMessage(error));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="report-title" className={sectionClass} data-testid="import-report">
      <h2 id="report-title" className="text-xl font-semibold">
        3. {done ? 'The report' : 'Listing your books…'}: {item.fileName}
      </h2>
      <div className="mt-4">
        <div
          role="progressbar"
          aria-label="Rows checked and listed"
          aria-valuemin={0}
          aria-valuemax={item.totalRows}
          aria-valuenow={item.processedRows}
          className="h-3 overflow-hidden rounded-full bg-paper-edge"
        >
          <div
            className="h-full bg-moss transition-[width]"
            style={{ width: `${Math.round(fraction * 100)}%` }}
          />
        </div>
        <p className="mt-2 text-sm text-ink-muted" aria-live="polite" data-testid="import-progress">
          {item.processedRows.toLocaleString('en-GB')} of {countOf(item.totalRows, 'row', 'rows')} done
        </p>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="import-summary">
        {[
          ['Rows', item.totalRows],
          ['Listed', item.listedRows],
          ['Saved as drafts', item.draftRows],
          ['To correct', toCorrect],
        ].map(([label, value]) => (
          <div key={label} className="rounded-xl bg-paper-deep p-3">
            <dt className="text-sm text-ink-muted">{label}</dt>
            <dd className="font-serif text-2xl font-semibold">{Number(value).toLocaleString('en-GB')}</dd>
          </div>
        ))}
      </dl>
      {done && toCorrect > 0 ? (
        <Alert
          tone="error"
          className="mt-4"
          title={`${countOf(toCorrect, 'row needs', 'rows need')} correcting`}
        >
          Download them as a CSV, correct them (each row says what was wrong in its problems column) and
          upload the file again. The rows already listed stay listed.
          <div className="mt-3">
            <Button size="sm" variant="outline" disabled={downloading} onClick={() => void corrections()}>
              <Download aria-hidden="true" />
              Download the rows to correct
            </Button>
          </div>
        </Alert>
      ) : done ? (
        <Alert tone="success" className="mt-4" title="Every row is done">
          {item.draftRows > 0 ? (
            <>
              Books we don’t know yet are saved as drafts:{' '}
              <Link to="/account/listings?status=draft" className={linkClass}>
                add their title and author
              </Link>
              .
            </>
          ) : (
            'All your books are on sale.'
          )}
        </Alert>
      ) : null}

      {done ? (
        <div className="mt-6">
          <div role="tablist" aria-label="Show rows" className="flex flex-wrap gap-2">
            {FILTERS.map((f) => (
              <button
                key={f.key}
                type="button"
                role="tab"
                aria-selected={filter === f.key}
                className={cn(
                  'rounded-full border px-3 py-1 text-sm font-semibold',
                  filter === f.key ? 'border-ink bg-ink text-paper' : 'border-line hover:border-ink/40',
                )}
                onClick={() => {
                  setFilter(f.key);
                  setPage(1);
                }}
              >
                {f.label}
              </button>
            ))}
          </div>
          {report.isPending ? (
            <Skeleton className="mt-4 h-40" />
          ) : report.isError ? (
            <QueryError what="the report" onRetry={() => report.refetch()} retrying={report.isFetching} />
          ) : (
            <>
              <TableScroll label="Report rows" className="mt-4">
                <table className="w-full min-w-[36rem] text-left text-sm" data-testid="report-rows">
                  <thead>
                    <tr className="border-b border-line text-ink-muted">
                      <th className="py-2 pr-3 font-semibold">Row</th>
                      <th className="py-2 pr-3 font-semibold">ISBN</th>
                      <th className="py-2 pr-3 font-semibold">Book</th>
                      <th className="py-2 pr-3 font-semibold">Outcome</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.data.rows.map((row) => (
                      <tr
                        key={row.rowNumber}
                        className="border-b border-line/60 align-top"
                        data-status={row.status}
                      >
                        <td className="py-2 pr-3">{row.rowNumber}</td>
                        <td className="py-2 pr-3 font-mono text-xs">{row.isbn || '—'}</td>
                        <td className="py-2 pr-3">
                          {row.listingSlug ? (
                            <Link to={`/listing/${row.listingSlug}`} className={linkClass}>
                              {row.title}
                            </Link>
                          ) : (
                            (row.title ?? '—')
                          )}
                          {demand.get(normaliseIsbn(row.isbn) ?? '') ? (
                            <span className="block text-xs font-medium text-brand" data-testid="row-demand">
                              {demand.get(normaliseIsbn(row.isbn) ?? '')}
                            </span>
                          ) : null}
                        </td>
                        <td className="py-2 pr-3">
                          <span
                            className={cn(
                              'font-semibold',
                              row.status === 'listed'
                                ? 'text-moss'
                                : row.status === 'draft'
                                  ? 'text-ink-soft'
                                  : 'text-destructive',
                            )}
                          >
                            {BULK_ROW_STATUS_LABELS[row.status]}
                          </span>
                          {row.listingId ? (
                            <span className="block">
                              <FairPriceLine price={fairPrices.get(row.listingId)} />
                            </span>
                          ) : null}
                          {row.errors.length ? (
                            <ul className="mt-1 list-disc pl-4 text-ink-soft">
                              {row.errors.map((error) => (
                                <li key={error}>{error}</li>
                              ))}
                            </ul>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              {report.data.total > report.data.pageSize ? (
                <div className="mt-4 flex items-center gap-3 text-sm">
                  <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                    Previous
                  </Button>
                  <span>
                    Page {page} of {Math.ceil(report.data.total / report.data.pageSize)}
                  </span>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={page * report.data.pageSize >= report.data.total}
                    onClick={() => setPage(page + 1)}
                  >
                    Next
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}
