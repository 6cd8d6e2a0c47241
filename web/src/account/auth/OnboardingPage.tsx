import { zodResolver } from '@hookform/resolvers/zod';
import type { Genre } from '@reshelf/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { safeNextPath } from '../../lib/next-path.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { refreshSession, useSession } from '../../lib/session.ts';
import { trpc } from '../../lib/trpc.ts';
import { AuthShell } from './AuthShell.tsx';

export const MAX_GENRES = 20;
export const MAX_AUTHORS = 20;

const genresSchema = z.object({
  genreIds: z.array(z.string()).max(MAX_GENRES, `Pick at most ${MAX_GENRES} genres`),
});
type GenreValues = z.input<typeof genresSchema>;

/**
 * /onboarding (signed in): pick favourite genres, or skip; then /onboarding/complete, or
 * straight on to `next` when sign-up began on the way somewhere (a checkout, say).
 */
export function OnboardingPage() {
  usePageMeta('Pick your favourite genres', 'Tell us what you like to read.');
  const genres = trpc.catalogue.taxonomy.public.genres.useQuery();
  const profile = trpc.account.member.profile.useQuery();
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));

  return (
    <AuthShell
      width="wide"
      eyebrow="Step 2 of 2"
      title="What do you like to read?"
      description="Pick a few favourite genres and authors and we'll recommend more of what you love. You can change them any time, or skip this for now."
    >
      {genres.isError || profile.isError ? (
        <Alert tone="error">
          {apiErrorMessage(genres.error ?? profile.error)}{' '}
          <button
            type="button"
            className="font-semibold text-brand underline"
            onClick={() => {
              void genres.refetch();
              void profile.refetch();
            }}
          >
            Try again
          </button>
        </Alert>
      ) : genres.isPending || profile.isPending ? (
        <GenreSkeleton />
      ) : (
        <GenreForm
          genres={genres.data}
          chosen={profile.data.favouriteGenreIds}
          chosenAuthors={profile.data.favouriteAuthors}
          next={next}
        />
      )}
    </AuthShell>
  );
}

function GenreSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading genres" className="flex flex-wrap gap-2">
      {[28, 36, 24, 32, 40, 28, 24, 36, 32].map((width, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders that never reorder.
        <Skeleton key={index} className="h-11 rounded-full" style={{ width: `${width * 4}px` }} />
      ))}
    </div>
  );
}

function GenreForm({
  genres,
  chosen,
  chosenAuthors,
  next,
}: {
  genres: Genre[];
  chosen: string[];
  chosenAuthors: string[];
  next: string | null;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const session = useSession();
  const completeOnboarding = trpc.account.member.completeOnboarding.useMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [skipping, setSkipping] = useState(false);
  const [authors, setAuthors] = useState<string[]>(chosenAuthors);
  const form = useForm<GenreValues, unknown, z.output<typeof genresSchema>>({
    resolver: zodResolver(genresSchema),
    defaultValues: { genreIds: chosen },
  });
  const { errors, isSubmitting } = form.formState;
  const picked = form.watch('genreIds') ?? [];

  async function save(genreIds: string[], skipped: boolean) {
    setProblem(null);
    try {
      // Skipping saves nothing, but still marks onboarding done; it never clears earlier choices.
      const alreadyOnboarded = session.status === 'signed-in' && session.user.onboarded;
      if (!(skipped && alreadyOnboarded)) {
        await completeOnboarding.mutateAsync(skipped ? { genreIds } : { genreIds, authors });
        await Promise.all([
          refreshSession(queryClient),
          utils.account.member.profile.invalidate(),
          utils.community.recommendations.invalidate(),
        ]);
      }
      if (next) {
        notify.success('You’re all set', { description: 'Your account is ready. Carry on where you were.' });
        await navigate(next, { replace: true });
        return;
      }
      await navigate('/onboarding/complete', { state: { skipped } });
    } catch (error) {
      setProblem(apiErrorMessage(error));
    }
  }

  const onSubmit = form.handleSubmit(({ genreIds }) => save(genreIds, false));
  const onSkip = async () => {
    setSkipping(true);
    await save([], true);
    setSkipping(false);
  };
  const busy = isSubmitting || skipping;

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
      <fieldset aria-describedby={errors.genreIds ? 'genres-error' : undefined}>
        <legend className="text-sm font-semibold text-ink">Favourite genres</legend>
        <p className="mt-1 text-sm text-ink-muted" aria-live="polite">
          {picked.length === 0 ? 'None picked yet.' : `${picked.length} picked.`}
        </p>
        <div className="mt-4 flex flex-wrap gap-2" data-testid="genre-options">
          {genres.map((genre) => (
            <label
              key={genre.id}
              className="group relative inline-flex min-h-11 cursor-pointer select-none items-center gap-2 rounded-full border border-ink/20 bg-white px-4 text-sm font-medium text-ink-soft transition-colors hover:border-ink/40 has-checked:border-brand has-checked:bg-brand has-checked:text-brand-foreground has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand"
            >
              <input
                type="checkbox"
                value={genre.id}
                className="peer sr-only"
                {...form.register('genreIds')}
              />
              <Check aria-hidden="true" className="hidden size-4 peer-checked:block" />
              {genre.name}
            </label>
          ))}
        </div>
        {errors.genreIds ? (
          <p id="genres-error" className="mt-3 text-sm font-medium text-destructive">
            {errors.genreIds.message}
          </p>
        ) : null}
      </fieldset>
      <AuthorsPicker authors={authors} onChange={setAuthors} />
      {problem ? (
        <Alert tone="error" data-testid="form-error">
          {problem}
        </Alert>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button type="button" variant="ghost" size="lg" onClick={onSkip} disabled={busy}>
          {skipping ? 'Skipping…' : 'Skip for now'}
        </Button>
        <SubmitButton pending={isSubmitting} disabled={busy} pendingLabel="Saving…" className="sm:w-auto">
          Save and continue
        </SubmitButton>
      </div>
    </form>
  );
}

/** Favourite authors: typed (with suggestions from the catalogue), shown as removable chips. */
function AuthorsPicker({ authors, onChange }: { authors: string[]; onChange: (authors: string[]) => void }) {
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const query = typed.trim();
  const suggestions = trpc.account.member.authorSuggestions.useQuery(
    { query },
    { enabled: query.length >= 2, staleTime: 60_000 },
  );
  const add = () => {
    const name = typed.trim();
    if (!name) return;
    if (authors.length >= MAX_AUTHORS) {
      setProblem(`Pick at most ${MAX_AUTHORS} authors`);
      return;
    }
    if (name.length > 200) {
      setProblem('An author’s name is at most 200 characters');
      return;
    }
    setProblem(null);
    if (!authors.some((author) => author.toLowerCase() === name.toLowerCase())) onChange([...authors, name]);
    setTyped('');
  };
  return (
    <fieldset aria-describedby={problem ? 'authors-error' : undefined}>
      <legend className="text-sm font-semibold text-ink">Favourite authors</legend>
      <p className="mt-1 text-sm text-ink-muted">Type a name and press Enter or Add.</p>
      <div className="mt-3 flex gap-2">
        <label htmlFor="author-name" className="sr-only">
          Author’s name
        </label>
        <Input
          id="author-name"
          value={typed}
          list="author-suggestions"
          autoComplete="off"
          placeholder="e.g. Terry Pratchett"
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          data-testid="author-input"
        />
        <Button type="button" variant="outline" onClick={add} disabled={!typed.trim()}>
          Add
        </Button>
        <datalist id="author-suggestions">
          {(suggestions.data ?? []).map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
      {problem ? (
        <p id="authors-error" className="mt-2 text-sm font-medium text-destructive">
          {problem}
        </p>
      ) : null}
      {authors.length ? (
        <ul className="mt-3 flex flex-wrap gap-2" data-testid="chosen-authors">
          {authors.map((author) => (
            <li
              key={author}
              className="inline-flex min-h-9 items-center gap-1 rounded-full bg-brand-soft pl-3 text-sm font-medium text-brand"
            >
              {author}
              <button
                type="button"
                className="grid size-9 cursor-pointer place-items-center rounded-full hover:bg-brand/10 focus-visible:outline-2 focus-visible:outline-brand"
                onClick={() => onChange(authors.filter((name) => name !== author))}
                aria-label={`Remove ${author}`}
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
