/**
 * Where PostgreSQL's time goes in the catalogue reads the bench judges ("for any target
 * not met, the profile that shows what remains"). Seeds the bench's data, runs the real service
 * functions on a sample of the bench's own rotating inputs, captures each statement as sent, and
 * runs it again under `EXPLAIN (ANALYZE, BUFFERS)` in the same session settings: planning and
 * execution time, and the plan nodes that take the time (exclusive time, summed over the sample).
 *
 *   node --import tsx tests/bench/explain.ts [--size 10k|100k] [--sample 40] [--plans] [--members]
 *
 * `--members`: the signed-in reads of decision 0044 instead (members.ts's members, each with their
 * recommendations computed first as the job does): recommendations, the feed's first page and
 * advanced search, one read per member of the sample.
 *
 * A diagnosis tool, not a test: it prints, and asserts nothing.
 */

import { randomBytes } from 'node:crypto';
import { bookSearchInputSchema, browseInputSchema } from '@reshelf/contracts';
import pg from 'pg';
import { searchBooks } from '../../api/src/catalogue/editions/book-search.service.ts';
import { browseListings, getListingBySlug } from '../../api/src/catalogue/listings/listings.service.ts';
import {
  coldStart,
  computeRecommendations,
  memberRecommendations,
} from '../../api/src/community/recommendations/recommendations.service.ts';
import { feedPage } from '../../api/src/community/social/feed.service.ts';
import { createDatabase, TRIGRAM_THRESHOLDS } from '../../api/src/db/index.ts';
import { seedReferenceData } from '../../api/src/seed/demo.ts';
import { throwawayDatabase } from './harness.ts';
import { MEMBER_SCENARIOS, seedBenchMembers } from './members.ts';
import { BENCH_SIZES } from './options.ts';
import { browseInputs, detailSlugs, searchInputs } from './rotation.ts';
import { seedBench } from './seed.ts';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Total Time': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const sizeName = argument('size', '100k') as keyof typeof BENCH_SIZES;
const sample = Number(argument('sample', '40'));
const size = BENCH_SIZES[sizeName];
if (!size) throw new Error(`--size must be one of ${Object.keys(BENCH_SIZES).join(', ')}`);

/** A node's own time: its total (per loop × loops) less its children's. */
function exclusive(node: PlanNode, into: Map<string, number>): number {
  const total = node['Actual Total Time'] * node['Actual Loops'];
  const children = (node.Plans ?? []).reduce((sum, child) => sum + exclusive(child, into), 0);
  const label = [node['Node Type'], node['Index Name'] ?? node['Relation Name']].filter(Boolean).join(' on ');
  into.set(label, (into.get(label) ?? 0) + Math.max(0, total - children));
  return total;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const database = await throwawayDatabase('reshelf-explain-', 'reshelf_explain');
try {
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];
  const handle = createDatabase(database.databaseUrl, {
    max: 1,
    log: (event) => {
      if (event.level === 'query')
        captured.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  await seedReferenceData(handle.db);
  const vocabulary = {
    categories: (await handle.db.selectFrom('categories').select('slug').execute()).map((r) => r.slug),
    genres: (await handle.db.selectFrom('genres').select('slug').execute()).map((r) => r.slug),
  };
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  await seedBench(client, size, () => {});
  await client.query('analyze');
  await client.query(`set pg_trgm.similarity_threshold = ${TRIGRAM_THRESHOLDS.similarity}`);
  await client.query(`set pg_trgm.word_similarity_threshold = ${TRIGRAM_THRESHOLDS.wordSimilarity}`);

  type Read = [read: string, input: string, run: () => Promise<unknown>];
  const reads: Read[] = process.argv.includes('--members')
    ? await memberReads(client, database.databaseUrl, handle.db)
    : catalogueReads();
  captured.length = 0;

  async function memberReads(client: pg.Client, databaseUrl: string, db: typeof handle.db): Promise<Read[]> {
    const { members } = await seedBenchMembers(client, databaseUrl, randomBytes(32).toString('hex'));
    const chosen = members.slice(0, sample);
    const cold = await coldStart(db);
    for (const member of chosen) await computeRecommendations(db, member, cold);
    const advanced = MEMBER_SCENARIOS.find((s) => s.scenario === 'advanced search')!.inputs[3]!;
    return [
      ...chosen.map(
        (member): Read => ['recommendations', member, () => memberRecommendations(db, member, 24)],
      ),
      ...chosen.map((member): Read => ['feed', member, () => feedPage(db, member, { limit: 20 })]),
      ...chosen.map(
        (member): Read => [
          'advanced search',
          member,
          () => browseListings(db, browseInputSchema.parse(advanced)),
        ],
      ),
    ];
  }

  function catalogueReads(): Read[] {
    return [
      ...searchInputs(sample).map(
        (input): Read => [
          'search',
          JSON.stringify(input),
          () => searchBooks(handle.db, bookSearchInputSchema.parse(input)),
        ],
      ),
      ...browseInputs(sample, vocabulary).map(
        (input): Read => [
          'browse',
          JSON.stringify(input),
          () => searchBooks(handle.db, bookSearchInputSchema.parse(input)),
        ],
      ),
      ...detailSlugs(sample, size.listings).map(
        (slug): Read => ['detail', slug, () => getListingBySlug(handle.db, slug)],
      ),
    ];
  }

  interface Figures {
    statements: number;
    planning: number[];
    execution: number[];
    nodes: Map<string, number>;
    slowest: [string, number][];
    worst?: { execution: number; sql: string; parameters: readonly unknown[] };
  }
  const figures = new Map<string, Figures>();
  for (const [read, input, run] of reads) {
    captured.length = 0;
    await run();
    const entry: Figures = figures.get(read) ?? {
      statements: 0,
      planning: [],
      execution: [],
      nodes: new Map(),
      slowest: [],
    };
    figures.set(read, entry);
    let planning = 0;
    let execution = 0;
    for (const statement of captured) {
      entry.statements += 1;
      const { rows } = await client.query<{
        'QUERY PLAN': [{ Plan: PlanNode; 'Planning Time': number; 'Execution Time': number }];
      }>(`explain (analyze, buffers, format json) ${statement.sql}`, statement.parameters as unknown[]);
      const [plan] = rows[0]!['QUERY PLAN'];
      planning += plan['Planning Time'];
      execution += plan['Execution Time'];
      exclusive(plan.Plan, entry.nodes);
      if (!entry.worst || plan['Execution Time'] > entry.worst.execution) {
        entry.worst = { execution: plan['Execution Time'], ...statement };
      }
    }
    entry.planning.push(planning);
    entry.execution.push(execution);
    entry.slowest.push([input, execution]);
  }

  console.info(
    `\nPostgreSQL time per read, ${sizeName} listings, ${sample} of the bench's inputs each (EXPLAIN ANALYZE)\n`,
  );
  console.info(
    '| read | statements per read | planning ms (median) | execution ms (median / max) | where the execution time goes (share of exclusive time) |',
  );
  console.info('| --- | ---: | ---: | ---: | --- |');
  for (const [read, entry] of figures) {
    const total = [...entry.nodes.values()].reduce((a, b) => a + b, 0) || 1;
    const top = [...entry.nodes.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([label, ms]) => `${label} ${Math.round((100 * ms) / total)}%`)
      .join('; ');
    console.info(
      `| ${read} | ${(entry.statements / entry.execution.length).toFixed(1)} | ${median(entry.planning).toFixed(2)} | ${median(entry.execution).toFixed(2)} / ${Math.max(...entry.execution).toFixed(2)} | ${top} |`,
    );
  }
  console.info('\nSlowest inputs (execution ms):');
  for (const [read, entry] of figures) {
    const slowest = entry.slowest.sort((a, b) => b[1] - a[1]).slice(0, 3);
    console.info(`- ${read}: ${slowest.map(([input, ms]) => `${input} ${ms.toFixed(1)}`).join('; ')}`);
  }
  if (process.argv.includes('--plans')) {
    for (const [read, entry] of figures) {
      if (!entry.worst) continue;
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers) ${entry.worst.sql}`,
        entry.worst.parameters as unknown[],
      );
      console.info(
        `\nThe slowest ${read} statement's plan:\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`,
      );
    }
  }
  await client.end();
  await handle.close();
} finally {
  await database.stop();
}
