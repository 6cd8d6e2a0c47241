/**
 * The reader's side of the demo (decision 0044): demo copies described as advanced
 * search asks (a third hardbacks, a few first editions and signed copies, chosen by their slugs
 * so every seed is the same), and buyer@reshelf.test following a seller, a charity, a genre and
 * an author, with a saved search and a recent price drop, so /social, the Following filter and
 * /account/saved-searches show something from the first start; and loving two genres (what
 * onboarding asks), so their /recommendations are explained from the first start too.
 */
import { sql } from 'kysely';
import type { Database } from '../db/index.ts';

export async function seedDemoSocial(db: Database): Promise<Record<string, unknown>> {
  const described = await sql`
    update public.listings set
      format = case when abs(hashtext(slug || ':format')) % 10 < 3 then 'hardback' else 'paperback' end,
      first_edition = abs(hashtext(slug || ':first')) % 17 = 0,
      signed = abs(hashtext(slug || ':signed')) % 19 = 0
    where status <> 'draft' and slug is not null`.execute(db);
  const people = await db
    .selectFrom('auth.users')
    .select(['id', 'email'])
    .where('email', 'in', ['buyer@reshelf.test', 'seller@reshelf.test'])
    .execute();
  const reader = people.find((p) => p.email === 'buyer@reshelf.test')?.id;
  const seller = people.find((p) => p.email === 'seller@reshelf.test')?.id;
  if (!reader || !seller) return { listings: Number(described.numAffectedRows ?? 0), follows: 0 };

  const charity = await db
    .selectFrom('charities')
    .select('id')
    .where('status', '=', 'approved')
    .orderBy('created_at')
    .executeTakeFirst();
  const genre = await db.selectFrom('genres').select('id').where('slug', '=', 'classics').executeTakeFirst();
  // An author with a book on sale from someone other than the followed seller.
  const { rows: authors } = await sql<{ author: string }>`
    select b.authors[1] as author from public.listings l join public.books b on b.id = l.book_id
    where l.status = 'active' and l.seller_id <> ${seller} and l.seller_id <> ${reader}
      and cardinality(b.authors) > 0
    order by l.published_at desc limit 1`.execute(db);
  const follows = [
    { follower_id: reader, kind: 'seller', seller_id: seller },
    ...(charity ? [{ follower_id: reader, kind: 'charity', charity_id: charity.id }] : []),
    ...(genre ? [{ follower_id: reader, kind: 'genre', genre_id: genre.id }] : []),
    ...(authors[0] ? [{ follower_id: reader, kind: 'author', author_name: authors[0].author }] : []),
  ];
  await db.insertInto('follows').values(follows).execute();
  // What the reader told onboarding: the genres they love, so /recommendations is theirs from the
  // first start rather than the cold start's staff picks (the list is computed on first read).
  const loved = await db
    .selectFrom('genres')
    .select('id')
    .where('slug', 'in', ['classics', 'cosy-crime'])
    .execute();
  if (loved.length) {
    await db
      .insertInto('profile_genres')
      .values(loved.map((g) => ({ user_id: reader, genre_id: g.id })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  // A price drop on one of the followed seller's books yesterday (the listing shows its price now).
  const dropped = await db
    .selectFrom('listings')
    .select(['id', 'price_minor'])
    .where('seller_id', '=', seller)
    .where('status', '=', 'active')
    .where('price_minor', '>', 300)
    .orderBy('published_at', 'desc')
    .executeTakeFirst();
  if (dropped?.price_minor) {
    await db
      .insertInto('listing_price_drops')
      .values({
        listing_id: dropped.id,
        seller_id: seller,
        old_price_minor: dropped.price_minor + 200, // money-ok: the demo's made-up earlier price
        new_price_minor: dropped.price_minor,
        dropped_at: new Date(Date.now() - 86_400_000),
      })
      .execute();
  }
  await db
    .insertInto('saved_searches')
    .values({
      user_id: reader,
      name: 'Signed hardbacks under £30.00',
      query: 'format=hardback&maxPrice=30.00&signed=1',
      params: JSON.stringify({ format: 'hardback', maxPrice: 3000, signed: true }),
      alerts: 'daily',
    })
    .execute();
  return {
    listings: Number(described.numAffectedRows ?? 0),
    follows: follows.length,
    priceDrops: dropped ? 1 : 0,
    savedSearches: 1,
  };
}
