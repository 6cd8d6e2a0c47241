/**
 * The fair price's time-split backtest (issue 38, decision 0091), inside `pnpm bench` and alone:
 *   node --import tsx tests/bench/fair-price.ts
 * Sales histories from the demo's price model (api/src/seed/demo-sales-history.ts, never from the
 * estimator): the demo catalogue's 73 editions as the demo seeds them, and a long tail of thinly
 * sold editions (several editions per work) where the fallbacks do the work. Each is fitted on the
 * sales before the split (the last 20% of the time held out) and every later sale is predicted
 * by the estimator's own code at the level it would use (backtestFairPrice). Rule variants beside
 * the chosen rules show what the choices rest on. Figures are reported, never asserted.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BacktestReport,
  backtestFairPrice,
  FAIR_PRICE_RULES,
  type FairPriceRules,
  splitDate,
} from '../../api/src/commerce/fair-price/fair-price.ts';
import { SNAPSHOT_BOOKS } from '../../api/src/seed/books.ts';
import {
  demoSalesHistory,
  HISTORY_MODEL,
  type HistoryBook,
  seededRandom,
} from '../../api/src/seed/demo-sales-history.ts';
import { CATEGORIES } from '../../api/src/seed/reference-data.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface FairPriceBenchRow {
  dataset: string;
  rules: string;
  chosen: boolean;
  sales: number;
  report: BacktestReport;
}

/** The demo catalogue: each snapshot book its own edition and work, in its category. */
function demoCatalogue(): HistoryBook[] {
  return SNAPSHOT_BOOKS.map((book) => ({
    id: book.isbn13,
    workId: `work:${book.isbn13}`,
    categoryId: book.category,
    categorySlug: book.category,
    publishedYear: book.publishedYear,
  }));
}

/** A long tail: 1,200 works of one to three editions each, over the categories and a century of years. */
function longTailCatalogue(): HistoryBook[] {
  const random = seededRandom(9);
  const books: HistoryBook[] = [];
  for (let work = 0; work < 1_200; work += 1) {
    const category = CATEGORIES[Math.floor(random() * CATEGORIES.length)]!.slug;
    const editions = 1 + Math.floor(random() * 3);
    for (let edition = 0; edition < editions; edition += 1) {
      books.push({
        id: `tail:${work}:${edition}`,
        workId: `tail:${work}`,
        categoryId: category,
        categorySlug: category,
        publishedYear: 1925 + Math.floor(random() * 101),
      });
    }
  }
  return books;
}

const VARIANTS: { label: string; rules: FairPriceRules }[] = [
  { label: 'chosen: ≥5 sales, equal weights, 2-year window', rules: { ...FAIR_PRICE_RULES } },
  { label: 'half-life 365 d', rules: { ...FAIR_PRICE_RULES, halfLifeDays: 365 } },
  { label: 'half-life 180 d', rules: { ...FAIR_PRICE_RULES, halfLifeDays: 180 } },
  { label: 'half-life 60 d', rules: { ...FAIR_PRICE_RULES, halfLifeDays: 60 } },
  { label: '1-year window', rules: { ...FAIR_PRICE_RULES, windowDays: 365 } },
  { label: '≥3 sales', rules: { ...FAIR_PRICE_RULES, minSales: 3 } },
  { label: '≥10 sales', rules: { ...FAIR_PRICE_RULES, minSales: 10 } },
];

export function fairPriceBacktests(now = new Date()): FairPriceBenchRow[] {
  const datasets = [
    { name: 'demo catalogue (as seeded)', sales: demoSalesHistory(demoCatalogue(), { now }) },
    {
      name: 'long tail (thin sales, 1–3 editions a work)',
      sales: demoSalesHistory(longTailCatalogue(), {
        now,
        seed: 7,
        model: { ...HISTORY_MODEL, meanSalesPerEdition: 4 },
      }),
    },
  ];
  const rows: FairPriceBenchRow[] = [];
  for (const dataset of datasets) {
    const sales = dataset.sales.map((sale) => ({ ...sale }));
    const split = splitDate(sales, 0.2);
    for (const variant of VARIANTS) {
      rows.push({
        dataset: dataset.name,
        rules: variant.label,
        chosen: variant.label.startsWith('chosen'),
        sales: sales.length,
        report: backtestFairPrice(sales, split, variant.rules),
      });
    }
  }
  return rows;
}

const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);

export function renderFairPrice(rows: readonly FairPriceBenchRow[]): string {
  return [
    '## Fair price: time-split backtest',
    '',
    'Fitted on the sales before the split (the last 20% of the time held out); each held-out sale predicted at the level the estimator would use. MdAPE: median |suggestion − price| / price.',
    '',
    '| history | rules | sales (fit / held out) | coverage | MdAPE | within ±15% | in band | edition: n, MdAPE | work: n, MdAPE | format+genre: n, MdAPE |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(({ dataset, rules, chosen, report: r }) => {
      const level = (name: keyof BacktestReport['byLevel']) =>
        `${r.byLevel[name].predicted}, ${percent(r.byLevel[name].medianAbsolutePercentageError)}`;
      const name = chosen ? `**${rules}**` : rules;
      return `| ${dataset} | ${name} | ${r.fitted} / ${r.heldOut} | ${percent(r.coverage)} | ${percent(r.medianAbsolutePercentageError)} | ${percent(r.within15)} | ${percent(r.inBand)} | ${level('edition')} | ${level('work')} | ${level('format_genre')} |`;
    }),
  ].join('\n');
}

if (process.argv[1]?.endsWith('fair-price.ts')) {
  const started = performance.now();
  const rows = fairPriceBacktests();
  const markdown = `${renderFairPrice(rows)}\n\nRun ${new Date().toISOString()} in ${Math.round(performance.now() - started)} ms.\n`;
  const file = path.join(
    ROOT,
    'tests/bench/results',
    `${new Date().toISOString().slice(0, 10)}-fair-price.md`,
  );
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, markdown);
  console.info(markdown);
  console.info(`written to ${path.relative(process.cwd(), file)}`);
}
