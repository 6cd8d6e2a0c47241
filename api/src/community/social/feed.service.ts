/**
 * The /social feed (decision 0044), newest first, paged with a keyset: the time and
 * key of the last item seen, so items arriving meanwhile never shift a page. Four sources:
 *   - new listings from followed sellers, charities, authors and genres (one item per listing,
 *     explained by the first reason of: seller, charity, author, genre);
 *   - price drops on followed sellers' books still on sale;
 *   - staff picks;
 *   - published book signings.
 * Each source reads through its own index, newest first, at most one page past the cursor,
 * so a page costs the same however long the member has followed things (a followed genre
 * walks listings_feed_published_idx and keeps that genre's rows: `genre_ids` has only a GIN
 * index, which cannot give rows in time order). Never the member's own listings.
 */
import {
  type BrowseParams,
  CATALOGUE_LIMITS,
  type FeedItem,
  type FeedPage,
  type FollowSuggestions,
  type ListingPage,
  shownAllInMinor,
} from '@reshelf/contracts';
import { sql } from 'kysely';
import {
  CARD_COLUMNS,
  CARD_JOINS,
  type CardRow,
  filterSql,
  resolveRefs,
  toCard,
  trendingListings,
} from '../../catalogue/index.ts';
import { type Database, PREPARED_TAG } from '../../db/index.ts';
import { commercialSettingsFromText } from '../../platform/settings/settings.service.ts';

interface FeedRow {
  kind: FeedItem['kind'];
  at: Date;
  key: string;
  listing_id: string | null;
  because_kind: 'seller' | 'charity' | 'author' | 'genre' | null;
  because_id: string | null;
  old_price: number | null;
  new_price: number | null;
  note: string | null;
  signing_id: string | null;
}

function parseCursor(cursor: string | null | undefined): { at: Date; key: string } | null {
  if (!cursor) return null;
  const [at = '', key = ''] = cursor.split('|');
  return { at: new Date(at), key };
}

/** One page of the member's feed. */
export async function feedPage(
  db: Database,
  userId: string,
  input: { limit: number; cursor?: string | null | undefined },
): Promise<FeedPage> {
  const cursor = parseCursor(input.cursor);
  const take = input.limit + 1;
  // Far in the future when there is no cursor: every item comes before it.
  const cursorAt = cursor?.at ?? new Date('9999-12-31T00:00:00Z');
  const cursorKey = cursor?.key ?? '~';
  // The keyset condition in a source: its time column and its key expression (raw SQL).
  const before = (at: string, key: string) =>
    sql`(${sql.ref(at)}, ${sql.raw(key)}) < (${cursorAt}::timestamptz, ${cursorKey}::text collate "C")`;
  // A prepared statement (db/index.ts): planning this statement took longer than running it.
  const { rows } = await sql<FeedRow>`${sql.raw(PREPARED_TAG)}
    with f as materialized (
      select kind, seller_id, charity_id, genre_id, author_key from public.follows
      where follower_id = ${userId}
    ),
    -- Books by followed authors: their trigram index narrows, the exact name decides.
    author_books as materialized (
      select b.id as book_id, f.author_key
      from f join public.books b
        on b.search_authors like '%' || f.author_key || '%'
       and f.author_key = any(array(select public.search_normalise(a) from unnest(b.authors) a))
      where f.kind = 'author'
    ),
    candidates as (
      select l.id, l.published_at as at, 1 as rank, 'seller' as because_kind, l.seller_id as because_id
      from f cross join lateral (
        select l.id, l.published_at, l.seller_id from public.listings l
        where l.seller_id = f.seller_id and l.status in ('active', 'reserved', 'sold')
          and l.published_at is not null
          and ${before('l.published_at', `'new_listing:' || l.id::text collate "C"`)}
        order by l.published_at desc, l.id desc limit ${take}
      ) l
      where f.kind = 'seller'
      union all
      select l.id, l.published_at, 2, 'charity', l.charity_id
      from f cross join lateral (
        select l.id, l.published_at, l.charity_id from public.listings l
        where l.charity_id = f.charity_id and l.status in ('active', 'reserved', 'sold')
          and l.published_at is not null
          and ${before('l.published_at', `'new_listing:' || l.id::text collate "C"`)}
        order by l.published_at desc, l.id desc limit ${take}
      ) l
      where f.kind = 'charity'
      union all
      select l.id, l.published_at, 3, 'author', null
      from (select distinct book_id from author_books) ab cross join lateral (
        select l.id, l.published_at from public.listings l
        where l.book_id = ab.book_id and l.status in ('active', 'reserved', 'sold')
          and l.published_at is not null
          and ${before('l.published_at', `'new_listing:' || l.id::text collate "C"`)}
        order by l.published_at desc, l.id desc limit ${take}
      ) l
      union all
      select l.id, l.published_at, 4, 'genre', f.genre_id
      from f cross join lateral (
        select l.id, l.published_at from public.listings l
        where l.genre_ids @> array[f.genre_id] and l.status in ('active', 'reserved', 'sold')
          and l.published_at is not null
          and ${before('l.published_at', `'new_listing:' || l.id::text collate "C"`)}
        order by l.published_at desc, l.id desc limit ${take}
      ) l
      where f.kind = 'genre'
    ),
    new_listings as (
      select distinct on (c.id) 'new_listing'::text as kind, c.at, 'new_listing:' || c.id as key,
        c.id as listing_id, c.because_kind, c.because_id
      from candidates c join public.listings l on l.id = c.id
      where l.seller_id <> ${userId}
      order by c.id, c.rank
    ),
    drops as (
      select 'price_drop'::text as kind, d.dropped_at as at, 'price_drop:' || d.id as key,
        d.listing_id, 'seller'::text as because_kind, d.seller_id as because_id,
        d.old_price_minor, d.new_price_minor
      from f cross join lateral (
        select d.* from public.listing_price_drops d
        where d.seller_id = f.seller_id
          and ${before('d.dropped_at', `'price_drop:' || d.id::text collate "C"`)}
        order by d.dropped_at desc, d.id desc limit ${take}
      ) d
      join public.listings l on l.id = d.listing_id and l.status = 'active'
      where f.kind = 'seller'
    ),
    picks as (
      select 'staff_pick'::text as kind, s.created_at as at, 'staff_pick:' || s.id as key,
        s.listing_id, s.note
      from public.staff_picks s join public.listings l on l.id = s.listing_id
      where l.status = 'active' and l.seller_id <> ${userId}
        and ${before('s.created_at', `'staff_pick:' || s.id::text collate "C"`)}
      order by s.created_at desc, s.id desc limit ${take}
    ),
    signings as (
      select 'book_signing'::text as kind, bs.published_at as at, 'book_signing:' || bs.id as key, bs.id
      from public.book_signings bs
      where bs.published_at is not null and bs.published_at <= now()
        and ${before('bs.published_at', `'book_signing:' || bs.id::text collate "C"`)}
      order by bs.published_at desc, bs.id desc limit ${take}
    ),
    items as (
      select kind, at, key, listing_id, because_kind, because_id,
        null::int as old_price, null::int as new_price, null::text as note, null::uuid as signing_id
      from new_listings
      union all
      select kind, at, key, listing_id, because_kind, because_id, old_price_minor, new_price_minor, null, null
      from drops
      union all
      select kind, at, key, listing_id, null, null, null, null, note, null from picks
      union all
      select kind, at, key, null, null, null, null, null, null, id from signings
    )
    select * from items
    where (at, key collate "C") < (${cursorAt}::timestamptz, ${cursorKey}::text collate "C")
    order by at desc, key collate "C" desc
    limit ${take}`.execute(db);

  const page = rows.slice(0, input.limit);
  const items = await hydrate(db, userId, page);
  const last = page.at(-1);
  // A new listing or a price drop is there because of a follow; only without one is it asked.
  const followsAnything =
    rows.some((row) => row.because_kind !== null) ||
    Boolean(await db.selectFrom('follows').select('id').where('follower_id', '=', userId).executeTakeFirst());
  return {
    items,
    nextCursor: rows.length > input.limit && last ? `${last.at.toISOString()}|${last.key}` : null,
    followsAnything,
  };
}

/** A price drop's item prices as shown prices (decision 0071), under the card's statement's settings. */
function dropOf(card: CardRow, oldPriceMinor: number, newPriceMinor: number) {
  const rules = commercialSettingsFromText(card.card_settings);
  const allIn = (priceMinor: number) => shownAllInMinor(priceMinor, rules);
  return { wasAllInMinor: allIn(oldPriceMinor), nowAllInMinor: allIn(newPriceMinor) };
}

/** The cards, reasons and signings of a page's rows, in two or three reads. */
async function hydrate(db: Database, userId: string, rows: FeedRow[]): Promise<FeedItem[]> {
  const listingIds = [...new Set(rows.flatMap((row) => (row.listing_id ? [row.listing_id] : [])))];
  const signingIds = rows.flatMap((row) => (row.signing_id ? [row.signing_id] : []));
  const [cards, signings, sellers] = await Promise.all([
    listingIds.length
      ? sql<CardRow & { seller_id: string; seller_name: string | null }>`${sql.raw(PREPARED_TAG)}
          select ${CARD_COLUMNS}, l.seller_id, coalesce(ch.name, p.display_name) as seller_name
          from public.listings l ${CARD_JOINS}
          left join public.profiles p on p.id = l.seller_id
          where l.id = any(${listingIds}::uuid[])`
          .execute(db)
          .then((r) => r.rows)
      : Promise.resolve([]),
    signingIds.length
      ? db
          .selectFrom('book_signings')
          .select(['id', 'title', 'author', 'venue', 'starts_at', 'description'])
          .where('id', 'in', signingIds)
          .execute()
      : Promise.resolve([]),
    reasons(db, userId, rows),
  ]);
  const cardById = new Map(cards.map((card) => [card.id, card]));
  const signingById = new Map(signings.map((signing) => [signing.id, signing]));
  return rows.flatMap((row): FeedItem[] => {
    const card = row.listing_id ? cardById.get(row.listing_id) : undefined;
    if (row.listing_id && !card) return [];
    const signing = row.signing_id ? signingById.get(row.signing_id) : undefined;
    if (row.signing_id && !signing) return [];
    return [
      {
        key: row.key,
        kind: row.kind,
        at: row.at.toISOString(),
        listing: card ? toCard(card) : null,
        because: row.because_kind
          ? (sellers.get(`${row.because_kind}:${row.because_id ?? row.listing_id}`) ?? null)
          : null,
        seller: card ? { id: card.seller_id, name: card.seller_name ?? 'A Reshelf seller' } : null,
        priceDrop:
          card && row.old_price !== null && row.new_price !== null
            ? dropOf(card, row.old_price, row.new_price)
            : null,
        note: row.note,
        signing: signing
          ? {
              id: signing.id,
              title: signing.title,
              author: signing.author,
              venue: signing.venue,
              startsAt: signing.starts_at.toISOString(),
              description: signing.description,
            }
          : null,
      },
    ];
  });
}

type Because = NonNullable<FeedItem['because']>;

/**
 * Why each row is in the feed, by "<kind>:<id>": the seller's or charity's name, the genre; an
 * author reason is keyed by the listing (the author is whichever followed one wrote it).
 */
async function reasons(db: Database, userId: string, rows: FeedRow[]): Promise<Map<string, Because>> {
  const ids = (kind: string) => [
    ...new Set(rows.flatMap((row) => (row.because_kind === kind && row.because_id ? [row.because_id] : []))),
  ];
  const sellerIds = ids('seller');
  const charityIds = ids('charity');
  const genreIds = ids('genre');
  const authorListings = rows.flatMap((row) =>
    row.because_kind === 'author' && row.listing_id ? [row.listing_id] : [],
  );
  const out = new Map<string, Because>();
  if (sellerIds.length) {
    const { rows: sellers } = await sql<{ id: string; name: string; charity_slug: string | null }>`
      select p.id, coalesce(c.name, p.display_name) as name, c.slug as charity_slug
      from public.profiles p
      left join lateral (
        select c.slug, c.name from public.charities c
        where c.owner_id = p.id and c.status = 'approved' order by c.created_at limit 1
      ) c on true
      where p.id = any(${sellerIds}::uuid[])`.execute(db);
    for (const seller of sellers) {
      out.set(`seller:${seller.id}`, {
        kind: 'seller',
        label: seller.name,
        href: seller.charity_slug ? `/charity/${seller.charity_slug}` : `/seller/${seller.id}`,
      });
    }
  }
  if (charityIds.length) {
    const charities = await db
      .selectFrom('charities')
      .select(['id', 'slug', 'name'])
      .where('id', 'in', charityIds)
      .execute();
    for (const charity of charities) {
      out.set(`charity:${charity.id}`, {
        kind: 'charity',
        label: charity.name,
        href: `/charity/${charity.slug}`,
      });
    }
  }
  if (genreIds.length) {
    const genres = await db
      .selectFrom('genres')
      .select(['id', 'slug', 'name'])
      .where('id', 'in', genreIds)
      .execute();
    for (const genre of genres) {
      out.set(`genre:${genre.id}`, { kind: 'genre', label: genre.name, href: `/g/${genre.slug}` });
    }
  }
  if (authorListings.length) {
    // The followed author of each listing, as the member wrote the name when following.
    const { rows: authors } = await sql<{ listing_id: string; author_name: string }>`
      select distinct on (l.id) l.id as listing_id, f.author_name
      from public.listings l
      join public.books b on b.id = l.book_id
      join public.follows f on f.kind = 'author'
        and f.author_key = any(array(select public.search_normalise(a) from unnest(b.authors) a))
      where l.id = any(${authorListings}::uuid[])
        and f.follower_id = ${userId}
      order by l.id, f.created_at`.execute(db);
    for (const author of authors) {
      out.set(`author:${author.listing_id}`, {
        kind: 'author',
        label: author.author_name,
        href: `/search?${new URLSearchParams({ author: author.author_name }).toString()}`,
      });
    }
  }
  return out;
}

/**
 * Whom to follow, for an empty feed: the genres the member chose at onboarding, then authors,
 * genres and sellers of what is trending, leaving out what they follow already and themselves.
 */
export async function followSuggestions(db: Database, userId: string): Promise<FollowSuggestions> {
  const trending = await trendingListings(db, 24);
  const trendingIds = trending.map((card) => card.id);
  const [chosen, trendingRows, followed] = await Promise.all([
    sql<{ slug: string; name: string }>`
      select g.slug, g.name from public.profile_genres pg join public.genres g on g.id = pg.genre_id
      where pg.user_id = ${userId}
        and not exists (select 1 from public.follows f where f.follower_id = ${userId} and f.genre_id = g.id)
      order by g.position, g.name limit 8`
      .execute(db)
      .then((r) => r.rows),
    trendingIds.length
      ? sql<{
          seller_id: string;
          seller_name: string;
          town: string | null;
          genres: { slug: string; name: string }[] | null;
        }>`
          select l.seller_id, coalesce(c.name, p.display_name) as seller_name, coalesce(c.town, p.town) as town,
            (select json_agg(json_build_object('slug', g.slug, 'name', g.name))
               from public.genres g where g.id = any(l.genre_ids)) as genres
          from public.listings l
          join public.profiles p on p.id = l.seller_id
          left join public.charities c on c.id = l.charity_id and c.status = 'approved'
          where l.id = any(${trendingIds}::uuid[])`
          .execute(db)
          .then((r) => r.rows)
      : Promise.resolve([]),
    db
      .selectFrom('follows')
      .select(['kind', 'seller_id', 'genre_id', 'author_key'])
      .where('follower_id', '=', userId)
      .execute(),
  ]);
  const followedSellers = new Set(followed.flatMap((f) => (f.seller_id ? [f.seller_id] : [])));
  const followedAuthors = new Set(followed.flatMap((f) => (f.author_key ? [f.author_key] : [])));
  const genreSlugs = new Set<string>();
  const genres: FollowSuggestions['genres'] = [];
  for (const genre of chosen) {
    genreSlugs.add(genre.slug);
    genres.push({ ...genre, reason: 'You chose it when you joined' });
  }
  const followedGenreIds = new Set(followed.flatMap((f) => (f.genre_id ? [f.genre_id] : [])));
  const followedGenreSlugs = followedGenreIds.size
    ? new Set(
        (
          await db
            .selectFrom('genres')
            .select('slug')
            .where('id', 'in', [...followedGenreIds])
            .execute()
        ).map((g) => g.slug),
      )
    : new Set<string>();
  for (const row of trendingRows) {
    for (const genre of row.genres ?? []) {
      if (genres.length >= 8) break;
      if (genreSlugs.has(genre.slug) || followedGenreSlugs.has(genre.slug)) continue;
      genreSlugs.add(genre.slug);
      genres.push({ ...genre, reason: 'Trending on Reshelf' });
    }
  }
  const authors: FollowSuggestions['authors'] = [];
  const authorKeys = new Set<string>();
  for (const card of trending) {
    for (const name of card.authors) {
      const key = name
        .normalize('NFD')
        .replace(/\p{Diacritic}/gu, '')
        .toLowerCase()
        .trim();
      if (authors.length >= 8 || authorKeys.has(key) || followedAuthors.has(key)) continue;
      authorKeys.add(key);
      authors.push({ name, reason: `Trending: ${card.title}` });
    }
  }
  const sellers: FollowSuggestions['sellers'] = [];
  const sellerIds = new Set<string>();
  for (const row of trendingRows) {
    if (sellers.length >= 6 || row.seller_id === userId) continue;
    if (sellerIds.has(row.seller_id) || followedSellers.has(row.seller_id)) continue;
    sellerIds.add(row.seller_id);
    sellers.push({
      id: row.seller_id,
      name: row.seller_name,
      town: row.town,
      reason: 'Selling a trending book',
    });
  }
  return { genres, authors, sellers };
}

/**
 * The "Following" filter of /listings: books on sale from followed sellers and charities, by
 * followed authors and in followed genres, with browsing's other filters and sorts, paged as
 * browsing is (page numbers over a snapshot).
 */
export async function followingListings(
  db: Database,
  userId: string,
  params: BrowseParams,
): Promise<ListingPage> {
  const now = new Date();
  const asOf = params.asOf && new Date(params.asOf) < now ? new Date(params.asOf) : now;
  const refs = await resolveRefs(db, params);
  const where = sql`${filterSql(params, refs, asOf)} and l.seller_id <> ${userId} and (
    l.seller_id in (select f.seller_id from public.follows f where f.follower_id = ${userId} and f.kind = 'seller')
    or l.charity_id in (select f.charity_id from public.follows f where f.follower_id = ${userId} and f.kind = 'charity')
    or l.genre_ids && array(select f.genre_id from public.follows f where f.follower_id = ${userId} and f.kind = 'genre')
    or exists (
      select 1 from public.follows f join public.books fb on fb.id = l.book_id
      where f.follower_id = ${userId} and f.kind = 'author'
        and f.author_key = any(array(select public.search_normalise(a) from unnest(fb.authors) a))))`;
  const order =
    params.sort === 'price_asc'
      ? sql`l.price_minor asc, l.id asc`
      : params.sort === 'price_desc'
        ? sql`l.price_minor desc, l.id desc`
        : sql`l.published_at desc, l.id desc`;
  const offset = (params.page - 1) * params.pageSize;
  const { rows } = await sql<CardRow>`
    select ${CARD_COLUMNS} from public.listings l ${CARD_JOINS}
    where ${where}
    order by ${order}
    limit ${params.pageSize + 1} offset ${offset}`.execute(db);
  const { rows: counted } = await sql<{ total: number }>`
    select count(*)::int as total from (
      select 1 from public.listings l where ${where} limit ${CATALOGUE_LIMITS.countCap + 1}
    ) capped`.execute(db);
  const total = counted[0]?.total ?? 0;
  return {
    items: rows.slice(0, params.pageSize).map(toCard),
    page: params.page,
    pageSize: params.pageSize,
    total: Math.min(total, CATALOGUE_LIMITS.countCap),
    totalCapped: total > CATALOGUE_LIMITS.countCap,
    hasNextPage: rows.length > params.pageSize,
    asOf: asOf.toISOString(),
  };
}
