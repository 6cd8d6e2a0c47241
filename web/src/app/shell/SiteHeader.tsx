import { useRef } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { HeaderSearch } from '../../catalogue/search/HeaderSearch.tsx';
import { BasketLink } from '../../commerce/basket/BasketLink.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Wordmark } from '../../components/Wordmark.tsx';
import { useStickyBar } from '../../lib/sticky-bar.ts';
import { HeaderAccount } from './HeaderAccount.tsx';

export function SiteHeader() {
  // Sticky from 768 px: focus scrolls clear of it (WCAG 2.4.11).
  const header = useRef<HTMLElement>(null);
  useStickyBar(header, 'top');
  return (
    <header
      ref={header}
      className="border-b border-line bg-paper/95 backdrop-blur-sm md:sticky md:top-[var(--shell-top,0px)] md:z-[55]"
    >
      <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:px-6 lg:px-8">
        <Wordmark />

        <HeaderSearch className="order-last w-full min-w-0 md:order-none md:mx-auto md:w-auto md:max-w-md md:flex-1" />

        <nav aria-label="Main" className="ml-auto flex items-center gap-1 sm:gap-2 md:ml-0">
          <NavLink
            to="/listings"
            className="rounded-md px-2 py-2 text-sm font-semibold text-ink-soft transition-colors hover:bg-paper-deep hover:text-ink aria-[current=page]:text-brand sm:px-3"
          >
            Browse
          </NavLink>
          <Button asChild variant="brand" size="sm">
            <Link to="/sell">
              <span className="sm:hidden">Sell</span>
              <span className="hidden sm:inline">Sell a book</span>
            </Link>
          </Button>
          <BasketLink />
          <HeaderAccount />
        </nav>
      </div>
    </header>
  );
}
