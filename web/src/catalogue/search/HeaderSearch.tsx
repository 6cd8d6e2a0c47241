import { CATALOGUE_LIMITS } from '@reshelf/contracts';
import { Search } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';

/** The site header's search box: title, author or ISBN, straight to /search?q=… */
export function HeaderSearch({ className }: { className?: string }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const current = pathname.startsWith('/search') ? (search.get('q') ?? '') : '';
  const [value, setValue] = useState(current);
  useEffect(() => setValue(current), [current]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = value.trim();
    navigate(q ? `/search?q=${encodeURIComponent(q)}` : '/search');
  };

  return (
    <search className={className}>
      <form onSubmit={submit} className="group relative">
        <label htmlFor="site-search" className="sr-only">
          Search books by title, author or ISBN
        </label>
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-1/2 text-ink-muted group-focus-within:text-brand"
        />
        <input
          id="site-search"
          name="q"
          type="search"
          enterKeyHint="search"
          autoComplete="off"
          maxLength={CATALOGUE_LIMITS.maxQueryLength}
          placeholder="Search by title, author or ISBN"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          className="h-11 w-full min-w-0 rounded-full border border-line bg-paper pr-24 pl-10 text-sm text-ink shadow-sm transition-colors placeholder:text-ink-muted hover:border-ink/30 hover:bg-white focus:bg-white focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand [&::-webkit-search-cancel-button]:hidden"
        />
        <button
          type="submit"
          className="absolute top-1 right-1 bottom-1 cursor-pointer rounded-full bg-brand px-4 text-sm font-semibold text-brand-foreground transition-colors hover:bg-brand-hover"
        >
          Search
        </button>
      </form>
    </search>
  );
}
