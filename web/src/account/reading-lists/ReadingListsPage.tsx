/**
 * /account/reading-lists (decision 0090): import a Goodreads or StoryGraph export — the file is
 * read in the browser and previewed (its format, shelves and what each row matched), the member
 * chooses which shelves become wants and which are books they have, then imports it whole — and
 * export wants and purchases in either layout.
 */
import {
  countOf,
  DEFAULT_WANT_SHELF,
  OWNED_SHELF,
  READING_LIST_LIMITS,
  READING_LIST_MATCH_LABELS,
  READING_LIST_MESSAGES,
  READING_LIST_OUTCOME_LABELS,
  READING_LIST_SOURCE_LABELS,
  READING_LIST_SOURCES,
  type ReadingListImport,
  type ReadingListMatch,
  type ReadingListPreview,
  type ReadingListRow,
  type ReadingListSource,
} from '@reshelf/contracts';
import { Download, FileUp } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { QueryError } from '../../components/QueryError.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../components/ui/notify.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { saveCsv } from '../../lib/download.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';

const sectionClass = 'rounded-2xl border border-line bg-paper p-5 shadow-card sm:p-6';
const MATCH_ORDER: ReadingListMatch[] = ['isbn', 'title_author', 'unmatched', 'error'];
const DATE = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Europe/London',
});

interface ChosenFile {
  name: string;
  text: string;
}

function RowItem({ row }: { row: ReadingListRow }) {
  return (
    <li className="flex flex-col gap-0.5 py-2" data-testid="reading-list-row">
      <span>
        {row.work ? (
          <Link
            to={`/book/${row.work.slug}`}
            className="font-semibold text-brand underline-offset-4 hover:underline"
          >
            {row.title}
          </Link>
        ) : (
          <span className="font-semibold">{row.title || '(no title)'}</span>
        )}
        {row.author ? <span className="text-ink-muted"> by {row.author}</span> : null}
      </span>
      <span className="text-sm text-ink-muted">
        {row.shelves.length > 0 ? `Shelves: ${row.shelves.join(', ')}` : null}
        {row.work && row.work.title !== row.title ? ` · On Reshelf as “${row.work.title}”` : null}
      </span>
      {row.reason ? <span className="text-sm text-ink-soft">{row.reason}</span> : null}
      {row.outcomes ? (
        <span className="text-sm font-medium" data-testid="reading-list-outcome">
          {row.outcomes.map((outcome) => READING_LIST_OUTCOME_LABELS[outcome]).join(' · ')}
        </span>
      ) : null}
    </li>
  );
}

/** Every row, grouped by how it matched: by ISBN, by title and author, not on Reshelf, unreadable. */
function Report({ rows }: { rows: ReadingListRow[] }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-6" data-testid="reading-list-report">
      {MATCH_ORDER.map((match) => {
        const group = rows.filter((row) => row.match === match);
        if (group.length === 0) return null;
        return (
          <section key={match} aria-labelledby={`${id}-${match}`} data-testid={`reading-list-${match}`}>
            <h3 id={`${id}-${match}`} className="text-lg font-semibold">
              {READING_LIST_MATCH_LABELS[match]} ({group.length})
            </h3>
            <ul className="divide-y divide-line">
              {group.map((row) => (
                <RowItem key={row.row} row={row} />
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}

function ShelfChoice({
  legend,
  hint,
  shelves,
  chosen,
  onChange,
  testId,
}: {
  legend: string;
  hint: string;
  shelves: ReadingListPreview['shelves'];
  chosen: string[];
  onChange: (next: string[]) => void;
  testId: string;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2" data-testid={testId} aria-describedby={`${id}-hint`}>
      <legend className="font-semibold">{legend}</legend>
      <p id={`${id}-hint`} className="text-sm text-ink-muted">
        {hint}
      </p>
      {shelves.map((shelf) => (
        <label key={shelf.name} className="flex items-center gap-2">
          <input
            type="checkbox"
            className="size-4"
            checked={chosen.includes(shelf.name)}
            onChange={(event) =>
              onChange(
                event.target.checked ? [...chosen, shelf.name] : chosen.filter((name) => name !== shelf.name),
              )
            }
          />
          <span>
            {shelf.name} <span className="text-ink-muted">({countOf(shelf.rows, 'book', 'books')})</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function Counts({ counts }: { counts: ReadingListPreview['counts'] }) {
  return (
    <p data-testid="reading-list-counts">
      {countOf(counts.rows, 'book', 'books')}: {counts.isbn} matched by ISBN, {counts.titleAuthor} by title
      and author, {counts.unmatched} not on Reshelf yet
      {counts.errors > 0 ? `, ${countOf(counts.errors, 'row', 'rows')} that can’t be read` : ''}.
    </p>
  );
}

function ImportSection() {
  const id = useId();
  const utils = trpc.useUtils();
  const [file, setFile] = useState<ChosenFile | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [preview, setPreview] = useState<ReadingListPreview | null>(null);
  const [wantShelves, setWantShelves] = useState<string[]>([]);
  const [haveShelves, setHaveShelves] = useState<string[]>([]);
  const [skipBadRows, setSkipBadRows] = useState(false);
  const [done, setDone] = useState<ReadingListImport | null>(null);

  const previewFile = trpc.account.readingLists.preview.useMutation({
    onSuccess: (data) => {
      setPreview(data);
      const names = data.shelves.map((shelf) => shelf.name);
      setWantShelves(names.includes(DEFAULT_WANT_SHELF) ? [DEFAULT_WANT_SHELF] : []);
      setHaveShelves(names.includes(OWNED_SHELF) ? [OWNED_SHELF] : []);
    },
    onError: (error) => setProblem(apiErrorMessage(error)),
  });
  const importFile = trpc.account.readingLists.import.useMutation({
    onSuccess: (data) => {
      setDone(data);
      setPreview(null);
      void utils.account.readingLists.list.invalidate();
    },
    onError: (error) => setProblem(apiErrorMessage(error)),
  });

  const choose = async (chosen: File | undefined) => {
    setProblem(null);
    setPreview(null);
    setDone(null);
    setSkipBadRows(false);
    if (!chosen) return;
    const text = await chosen.text();
    if (text.length > READING_LIST_LIMITS.maxFileChars) {
      setFile(null);
      setProblem(READING_LIST_MESSAGES.tooBig);
      return;
    }
    setFile({ name: chosen.name, text });
    previewFile.mutate({ text, fileName: chosen.name });
  };

  const badRows = preview?.counts.errors ?? 0;
  return (
    <section aria-labelledby={`${id}-title`} className={sectionClass}>
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        Import from Goodreads or StoryGraph
      </h2>
      <p className="mt-2 text-ink-soft">
        Export your library from Goodreads (My Books → Import and export → Export Library) or StoryGraph
        (Manage Account → Export StoryGraph Library), then choose the CSV file here. We find each book on
        Reshelf by its ISBN, or by its title and author, and show you what matched before anything is saved.
      </p>
      <div className="mt-4 flex flex-col gap-2">
        <label htmlFor={`${id}-file`} className="font-semibold">
          Your reading list (CSV file)
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          data-testid="reading-list-file"
          aria-describedby={problem ? `${id}-problem` : undefined}
          disabled={previewFile.isPending || importFile.isPending}
          onChange={(event) => void choose(event.target.files?.[0])}
          className="text-sm file:mr-3 file:h-10 file:rounded-lg file:border-0 file:bg-brand file:px-4 file:font-semibold file:text-brand-foreground"
        />
      </div>
      {previewFile.isPending ? (
        <p role="status" className="mt-3 text-ink-muted">
          Reading {file?.name}…
        </p>
      ) : null}
      {problem ? (
        <Alert tone="error" className="mt-4" data-testid="reading-list-problem">
          <span id={`${id}-problem`}>{problem}</span>
        </Alert>
      ) : null}

      {preview && file ? (
        <div className="mt-6 flex flex-col gap-6" data-testid="reading-list-preview">
          <div role="status">
            <p className="font-semibold" data-testid="reading-list-source">
              {READING_LIST_SOURCE_LABELS[preview.source]} export: {file.name}
            </p>
            <Counts counts={preview.counts} />
          </div>
          <div className="grid gap-6 sm:grid-cols-2">
            <ShelfChoice
              legend="Tell me when these are on sale"
              hint="Each matched book on these shelves becomes one of your wants."
              shelves={preview.shelves}
              chosen={wantShelves}
              onChange={setWantShelves}
              testId="want-shelves"
            />
            <ShelfChoice
              legend="I have these"
              hint="Books on these shelves count as yours, for completing a series."
              shelves={preview.shelves}
              chosen={haveShelves}
              onChange={setHaveShelves}
              testId="have-shelves"
            />
          </div>
          {badRows > 0 ? (
            <label className="flex items-start gap-2">
              <input
                type="checkbox"
                className="mt-1 size-4"
                checked={skipBadRows}
                onChange={(event) => setSkipBadRows(event.target.checked)}
                data-testid="skip-bad-rows"
              />
              <span>
                Skip the {countOf(badRows, 'row', 'rows')} that can’t be read (listed below) and import the
                rest
              </span>
            </label>
          ) : null}
          <div>
            <Button
              variant="brand"
              disabled={importFile.isPending || (badRows > 0 && !skipBadRows)}
              onClick={() => {
                setProblem(null);
                importFile.mutate({
                  text: file.text,
                  fileName: file.name,
                  wantShelves,
                  haveShelves,
                  skipBadRows,
                });
              }}
            >
              <FileUp aria-hidden="true" className="size-4" />
              {importFile.isPending ? 'Importing…' : 'Import'}
            </Button>
          </div>
          <Report rows={preview.rows} />
        </div>
      ) : null}

      {done ? (
        <div className="mt-6 flex flex-col gap-4" data-testid="reading-list-done">
          <Alert tone="success" title="Imported">
            <span data-testid="reading-list-added">
              {countOf(done.added.wants, 'want', 'wants')} and {countOf(done.added.haves, 'book', 'books')}{' '}
              you have added from {done.fileName ?? READING_LIST_SOURCE_LABELS[done.source]}.
            </span>{' '}
            <Counts counts={done.counts} />
          </Alert>
          <Report rows={done.rows} />
        </div>
      ) : null}
    </section>
  );
}

function PastImport({ entry }: { entry: Omit<ReadingListImport, 'rows'> }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const report = trpc.account.readingLists.get.useQuery({ id: entry.id }, { enabled: open });
  const name = entry.fileName ?? READING_LIST_SOURCE_LABELS[entry.source];
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="reading-list-import">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <span className="font-semibold">{name}</span>{' '}
          <span className="text-ink-muted">{DATE.format(new Date(entry.createdAt))}</span>
          <br />
          <span className="text-sm text-ink-soft">
            {countOf(entry.counts.rows, 'book', 'books')}; {countOf(entry.added.wants, 'want', 'wants')} and{' '}
            {countOf(entry.added.haves, 'book', 'books')} you have added
          </span>
        </div>
        <Button
          variant="outline"
          size="sm"
          aria-expanded={open}
          aria-controls={`${id}-report`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide report' : 'Show report'}
          <span className="sr-only"> for {name}</span>
        </Button>
      </div>
      <div id={`${id}-report`} hidden={!open}>
        {!open ? null : report.data ? (
          <Report rows={report.data.rows} />
        ) : report.isError ? (
          <QueryError
            what="this import’s report"
            onRetry={() => report.refetch()}
            retrying={report.isFetching}
          />
        ) : (
          <p role="status" className="text-ink-muted">
            Loading the report…
          </p>
        )}
      </div>
    </li>
  );
}

function PastImports() {
  const id = useId();
  const list = trpc.account.readingLists.list.useQuery(undefined, { staleTime: 0 });
  if (!list.data || list.data.length === 0) return null;
  return (
    <section aria-labelledby={`${id}-title`} className={sectionClass}>
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        Your imports
      </h2>
      <ul className="mt-3 divide-y divide-line" data-testid="reading-list-imports">
        {list.data.map((entry) => (
          <PastImport key={entry.id} entry={entry} />
        ))}
      </ul>
    </section>
  );
}

function ExportSection() {
  const id = useId();
  const utils = trpc.useUtils();
  const [exporting, setExporting] = useState<ReadingListSource | null>(null);
  const save = async (format: ReadingListSource) => {
    setExporting(format);
    try {
      const file = await utils.account.readingLists.export.fetch({ format });
      saveCsv(file.fileName, file.csv);
    } catch (error) {
      notify.error(apiErrorMessage(error));
    } finally {
      setExporting(null);
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className={sectionClass}>
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        Export
      </h2>
      <p className="mt-2 text-ink-soft">
        Your wants as to-read and the books you bought on Reshelf as read, as a file Goodreads or StoryGraph
        can import.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        {READING_LIST_SOURCES.map((format) => (
          <Button
            key={format}
            variant="outline"
            disabled={exporting !== null}
            onClick={() => void save(format)}
          >
            <Download aria-hidden="true" className="size-4" />
            {READING_LIST_SOURCE_LABELS[format]} CSV
          </Button>
        ))}
      </div>
    </section>
  );
}

/** /account/reading-lists. */
export function ReadingListsPage() {
  usePageMeta('Reading lists');
  return (
    <div>
      <PageHeader
        title="Reading lists"
        description="Bring your Goodreads or StoryGraph shelves to Reshelf, and take your wants and purchases back."
        crumbs={[{ to: '/account', label: 'Your account' }]}
      />
      <PageBody className="flex flex-col gap-6">
        <ImportSection />
        <PastImports />
        <ExportSection />
      </PageBody>
    </div>
  );
}
