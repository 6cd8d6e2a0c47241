import {
  BOOK_FORMAT_LABELS,
  BOOK_FORMATS,
  CONDITION_LABELS,
  CONDITIONS,
  normaliseIsbn,
  parsePounds,
} from '@reshelf/contracts';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Field } from '../../components/form/Field.tsx';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';

type Values = Record<
  | 'q'
  | 'title'
  | 'author'
  | 'isbn'
  | 'publisher'
  | 'yearFrom'
  | 'yearTo'
  | 'minPrice'
  | 'maxPrice'
  | 'format'
  | 'town',
  string
> & { conditions: string[]; firstEdition: boolean; signed: boolean; charityOnly: boolean };

function fromUrl(search: URLSearchParams): Values {
  const get = (key: string) => search.get(key) ?? '';
  return {
    q: get('q'),
    title: get('title'),
    author: get('author'),
    isbn: get('isbn'),
    publisher: get('publisher'),
    yearFrom: get('yearFrom'),
    yearTo: get('yearTo'),
    minPrice: get('minPrice'),
    maxPrice: get('maxPrice'),
    format: get('format'),
    town: get('town'),
    conditions: get('condition').split(',').filter(Boolean),
    firstEdition: get('firstEdition') === '1',
    signed: get('signed') === '1',
    charityOnly: get('charity') === '1',
  };
}

type Problems = Partial<Record<keyof Values, string>>;

/** What is wrong with the form, field by field (the API says the same, but sooner is kinder). */
function check(values: Values): Problems {
  const problems: Problems = {};
  const year = (key: 'yearFrom' | 'yearTo', label: string) => {
    const value = values[key].trim();
    if (value && (!/^\d{4}$/.test(value) || Number(value) < 1450 || Number(value) > 2100)) {
      problems[key] = `${label} must be a year between 1450 and 2100`;
    }
  };
  year('yearFrom', 'The earliest year');
  year('yearTo', 'The latest year');
  if (!problems.yearFrom && !problems.yearTo && values.yearFrom && values.yearTo) {
    if (Number(values.yearFrom) > Number(values.yearTo)) {
      problems.yearTo = 'The earliest year must not be after the latest year';
    }
  }
  const price = (key: 'minPrice' | 'maxPrice', label: string) => {
    const value = values[key].trim();
    const pence = value ? parsePounds(value) : null;
    if (value && (pence === null || pence > 1_000_000))
      problems[key] = `${label} must be an amount up to £10,000`;
  };
  price('minPrice', 'The lowest price');
  price('maxPrice', 'The highest price');
  if (!problems.minPrice && !problems.maxPrice && values.minPrice && values.maxPrice) {
    if ((parsePounds(values.minPrice) ?? 0) > (parsePounds(values.maxPrice) ?? 0)) {
      problems.maxPrice = 'The lowest price must not be more than the highest';
    }
  }
  if (values.isbn.trim() && !normaliseIsbn(values.isbn)) {
    problems.isbn = 'The ISBN must be a 10- or 13-digit ISBN';
  }
  return problems;
}

/** The /search address of the form: only the fields filled in. */
function toQuery(values: Values): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of ['q', 'title', 'author', 'isbn', 'publisher', 'yearFrom', 'yearTo', 'town'] as const) {
    const value = values[key].trim();
    if (value) out.set(key, value);
  }
  if (values.format) out.set('format', values.format);
  if (values.firstEdition) out.set('firstEdition', '1');
  if (values.signed) out.set('signed', '1');
  if (values.conditions.length) {
    out.set('condition', CONDITIONS.filter((c) => values.conditions.includes(c)).join(','));
  }
  if (values.minPrice.trim()) out.set('minPrice', values.minPrice.trim().replace(/^£/, ''));
  if (values.maxPrice.trim()) out.set('maxPrice', values.maxPrice.trim().replace(/^£/, ''));
  if (values.charityOnly) out.set('charity', '1');
  return out;
}

const selectClass =
  'h-10 w-full rounded-md border border-line bg-white px-3 text-sm text-ink shadow-sm focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand';

/** /search/advanced: every field of a search; the results are /search with each one in the address. */
export function AdvancedSearchPage() {
  usePageMeta(
    'Advanced search',
    'Find second-hand books by title, author, ISBN, publisher, year, condition, price, format, first edition, signed copies and the seller’s town.',
  );
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => fromUrl(search));
  const [problems, setProblems] = useState<Problems>({});
  const [empty, setEmpty] = useState(false);
  const set = (key: keyof Values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [key]: event.target.value }));
  const text = (
    key: 'q' | 'title' | 'author' | 'isbn' | 'publisher' | 'town',
    label: string,
    hint?: string,
  ) => (
    <Field label={label} hint={hint} error={problems[key]} optional>
      {(control) => (
        <Input
          {...control}
          name={key}
          value={values[key]}
          onChange={set(key)}
          maxLength={key === 'q' ? 200 : 200}
        />
      )}
    </Field>
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = check(values);
    setProblems(found);
    if (Object.keys(found).length) return;
    const query = toQuery(values);
    if (query.size === 0) {
      setEmpty(true);
      return;
    }
    setEmpty(false);
    navigate(`/search?${query.toString()}`);
  };
  return (
    <>
      <PageHeader
        title="Advanced search"
        description="Fill in as much or as little as you like: every field narrows the results. You can save the search on the results page and we’ll tell you when a new copy is listed."
        crumbs={[{ to: '/search', label: 'Search' }]}
      />
      <PageBody>
        <form
          noValidate
          onSubmit={onSubmit}
          aria-label="Advanced search"
          className="flex max-w-3xl flex-col gap-6"
        >
          <div className="grid gap-5 sm:grid-cols-2">
            {text('q', 'Any words', 'In the title or author; ISBNs work too')}
            {text('title', 'Title')}
            {text('author', 'Author')}
            {text('isbn', 'ISBN', '10 or 13 digits; hyphens are fine')}
            {text('publisher', 'Publisher')}
            {text('town', 'Seller’s town', 'Where the seller or charity is, e.g. Oxford')}
          </div>
          <fieldset className="grid gap-5 sm:grid-cols-2">
            <legend className="mb-3 text-sm font-semibold text-ink">Published</legend>
            <Field label="From (year)" error={problems.yearFrom} optional>
              {(control) => (
                <Input
                  {...control}
                  name="yearFrom"
                  inputMode="numeric"
                  value={values.yearFrom}
                  onChange={set('yearFrom')}
                />
              )}
            </Field>
            <Field label="To (year)" error={problems.yearTo} optional>
              {(control) => (
                <Input
                  {...control}
                  name="yearTo"
                  inputMode="numeric"
                  value={values.yearTo}
                  onChange={set('yearTo')}
                />
              )}
            </Field>
          </fieldset>
          <fieldset className="grid gap-5 sm:grid-cols-2">
            <legend className="mb-3 text-sm font-semibold text-ink">Price (£)</legend>
            <Field label="From" error={problems.minPrice} optional>
              {(control) => (
                <Input
                  {...control}
                  name="minPrice"
                  inputMode="decimal"
                  value={values.minPrice}
                  onChange={set('minPrice')}
                />
              )}
            </Field>
            <Field label="Up to" error={problems.maxPrice} optional>
              {(control) => (
                <Input
                  {...control}
                  name="maxPrice"
                  inputMode="decimal"
                  value={values.maxPrice}
                  onChange={set('maxPrice')}
                />
              )}
            </Field>
          </fieldset>
          <fieldset>
            <legend className="text-sm font-semibold text-ink">Condition</legend>
            <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
              {CONDITIONS.map((condition) => (
                <label key={condition} className="flex min-h-8 cursor-pointer items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-brand"
                    checked={values.conditions.includes(condition)}
                    onChange={(event) =>
                      setValues((current) => ({
                        ...current,
                        conditions: event.target.checked
                          ? [...current.conditions, condition]
                          : current.conditions.filter((c) => c !== condition),
                      }))
                    }
                  />
                  {CONDITION_LABELS[condition]}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Format" optional>
              {(control) => (
                <select
                  {...control}
                  name="format"
                  className={selectClass}
                  value={values.format}
                  onChange={set('format')}
                >
                  <option value="">Any format</option>
                  {BOOK_FORMATS.map((format) => (
                    <option key={format} value={format}>
                      {BOOK_FORMAT_LABELS[format]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <div className="flex flex-col gap-2">
            {(
              [
                ['firstEdition', 'First editions only'],
                ['signed', 'Signed copies only'],
                ['charityOnly', 'Charity sellers only'],
              ] as const
            ).map(([key, label]) => (
              <label
                key={key}
                className="flex min-h-8 cursor-pointer items-center gap-2.5 text-sm font-semibold"
              >
                <input
                  type="checkbox"
                  className="size-4 accent-brand"
                  name={key}
                  checked={values[key]}
                  onChange={(event) => setValues((current) => ({ ...current, [key]: event.target.checked }))}
                />
                {label}
              </label>
            ))}
          </div>
          {empty ? (
            <p className="text-sm font-medium text-destructive" role="alert">
              Fill in at least one field to search.
            </p>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" variant="brand">
              Search
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                setValues(fromUrl(new URLSearchParams()));
                setProblems({});
                setEmpty(false);
              }}
            >
              Clear
            </Button>
          </div>
        </form>
      </PageBody>
    </>
  );
}
