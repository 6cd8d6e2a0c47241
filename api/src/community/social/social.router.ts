/**
 * The reader's side: follows, the /social feed, the "Following" shelf and saved
 * searches. Every procedure is the signed-in member's own: no procedure takes a member id.
 */
import {
  browseInputSchema,
  feedInputSchema,
  feedPageSchema,
  followStatusSchema,
  followSuggestionsSchema,
  followTargetSchema,
  listingPageSchema,
  myFollowsSchema,
  savedSearchSchema,
  saveSearchInputSchema,
  setFollowInputSchema,
  updateSavedSearchInputSchema,
} from '@reshelf/contracts';
import { z } from 'zod';
import { authedProcedure, router } from '../../trpc.ts';
import { feedPage, followingListings, followSuggestions } from './feed.service.ts';
import { followStatus, myFollows, removeFollow, setFollow } from './follows.service.ts';
import {
  deleteSavedSearch,
  listSavedSearches,
  savedSearchFor,
  saveSearch,
  updateSavedSearch,
} from './saved-searches.service.ts';

const followsRouter = router({
  /** Follow or stop following (idempotent). */
  set: authedProcedure
    .input(setFollowInputSchema)
    .output(followStatusSchema)
    .mutation(({ ctx, input }) => setFollow(ctx.db, ctx.user.userId, input.target, input.following)),
  /** Whether the member follows it, and how many do. */
  status: authedProcedure
    .input(z.object({ target: followTargetSchema }))
    .output(followStatusSchema)
    .query(({ ctx, input }) => followStatus(ctx.db, ctx.user.userId, input.target)),
  /** Everything the member follows, and their own follower count as a seller. */
  mine: authedProcedure
    .input(z.void())
    .output(myFollowsSchema)
    .query(({ ctx }) => myFollows(ctx.db, ctx.user.userId)),
  /** Stop following, by the follow's id (the account's list). */
  remove: authedProcedure
    .input(z.object({ id: z.uuid('That is not one of your follows') }))
    .output(z.object({ removed: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await removeFollow(ctx.db, ctx.user.userId, input.id);
      return { removed: true as const };
    }),
});

const savedSearchesRouter = router({
  list: authedProcedure
    .input(z.void())
    .output(z.array(savedSearchSchema))
    .query(({ ctx }) => listSavedSearches(ctx.db, ctx.user.userId)),
  /** The member's saved search for a /search address, if they saved it. */
  forQuery: authedProcedure
    .input(z.object({ query: z.string().max(2000, 'That search address is too long') }))
    .output(savedSearchSchema.nullable())
    .query(({ ctx, input }) => savedSearchFor(ctx.db, ctx.user.userId, input.query)),
  save: authedProcedure
    .input(saveSearchInputSchema)
    .output(savedSearchSchema)
    .mutation(({ ctx, input }) => saveSearch(ctx.db, ctx.user.userId, input)),
  update: authedProcedure
    .input(updateSavedSearchInputSchema)
    .output(savedSearchSchema)
    .mutation(({ ctx, input }) => updateSavedSearch(ctx.db, ctx.user.userId, input)),
  remove: authedProcedure
    .input(z.object({ id: z.uuid('That is not one of your saved searches') }))
    .output(z.object({ removed: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteSavedSearch(ctx.db, ctx.user.userId, input.id);
      return { removed: true as const };
    }),
});

export const socialRouter = router({
  follows: followsRouter,
  feed: authedProcedure
    .input(feedInputSchema)
    .output(feedPageSchema)
    .query(({ ctx, input }) => feedPage(ctx.db, ctx.user.userId, input)),
  suggestions: authedProcedure
    .input(z.void())
    .output(followSuggestionsSchema)
    .query(({ ctx }) => followSuggestions(ctx.db, ctx.user.userId)),
  /** /listings?following=1: books on sale from what the member follows, with the usual filters. */
  following: authedProcedure
    .input(browseInputSchema)
    .output(listingPageSchema)
    .query(({ ctx, input }) => followingListings(ctx.db, ctx.user.userId, input)),
  savedSearches: savedSearchesRouter,
});
