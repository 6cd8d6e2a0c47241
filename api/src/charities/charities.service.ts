/** Charities that sell on Reshelf: the directory, a charity's profile and featured charities. */
import type { CharityDirectory, CharityDirectoryInput, CharitySummary } from '@reshelf/contracts';
import { charityDirectoryInputSchema } from '@reshelf/contracts';
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';
import { AppError } from '../errors.ts';

interface CharityRow {
  id: string;
  slug: string;
  name: string;
  registered_number: string;
  town: string | null;
  description: string | null;
  logo_url: string | null;
  website: string | null;
  active: number;
}

const CHARITY_COLUMNS = sql`
  ch.id, ch.slug, ch.name, ch.registered_number, ch.town, ch.description, ch.logo_url, ch.website,
  (select count(*)::int from public.listings l where l.charity_id = ch.id and l.status = 'active') as active`;

function toSummary(row: CharityRow): CharitySummary {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    registeredNumber: row.registered_number,
    town: row.town,
    description: row.description,
    logoUrl: row.logo_url,
    website: row.website,
    activeListings: row.active,
  };
}

/** Approved charities with the most books on sale. */
export async function featuredCharities(db: Database, limit = 4): Promise<CharitySummary[]> {
  const { rows } = await sql<CharityRow>`
    select ${CHARITY_COLUMNS} from public.charities ch
    where ch.status = 'approved'
    order by active desc, ch.name
    limit ${limit}`.execute(db);
  return rows.map(toSummary);
}

/** The directory: approved charities, searched by name (typos forgiven) and town. */
export async function charityDirectory(
  db: Database,
  input: CharityDirectoryInput,
): Promise<CharityDirectory> {
  const params = charityDirectoryInputSchema.parse(input);
  const conditions = [sql`ch.status = 'approved'`];
  if (params.q) {
    const pattern = `%${params.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      sql`(ch.search_name like public.search_normalise(${pattern})
           or public.search_normalise(${params.q}) <% ch.search_name)`,
    );
  }
  if (params.town) conditions.push(sql`lower(ch.town) = lower(${params.town})`);
  const where = sql.join(conditions, sql` and `);
  const [items, count, towns] = await Promise.all([
    sql<CharityRow>`
      select ${CHARITY_COLUMNS} from public.charities ch where ${where}
      order by ch.name, ch.id
      limit ${params.pageSize} offset ${(params.page - 1) * params.pageSize}`.execute(db),
    sql<{ total: number }>`select count(*)::int as total from public.charities ch where ${where}`.execute(db),
    sql<{ town: string }>`
      select distinct ch.town from public.charities ch
      where ch.status = 'approved' and ch.town is not null order by ch.town`.execute(db),
  ]);
  return {
    items: items.rows.map(toSummary),
    page: params.page,
    pageSize: params.pageSize,
    total: count.rows[0]?.total ?? 0,
    towns: towns.rows.map((row) => row.town),
  };
}

export async function charityBySlug(db: Database, slug: string): Promise<CharitySummary> {
  const { rows } = await sql<CharityRow>`
    select ${CHARITY_COLUMNS} from public.charities ch
    where ch.slug = ${slug} and ch.status = 'approved'`.execute(db);
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', 'We couldn’t find that charity on Reshelf.');
  return toSummary(row);
}
