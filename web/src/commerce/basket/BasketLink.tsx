/**
 * The header's basket: an icon with the number of books in it (its accessible name says the
 * number). Mounting it also merges a visitor's basket into their account once they sign in.
 */
import { countOf } from '@reshelf/contracts';
import { ShoppingBasket } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { useBasketCount, useMergeVisitorBasket } from './hooks.ts';

export function BasketLink() {
  useMergeVisitorBasket();
  const count = useBasketCount();
  const label = count === 0 ? 'Basket: empty' : `Basket: ${countOf(count, 'book', 'books')}`;
  return (
    <NavLink
      to="/basket"
      aria-label={label}
      title={label}
      data-testid="header-basket"
      data-count={count}
      className="relative grid size-9 shrink-0 place-items-center rounded-full text-ink-soft transition-colors hover:bg-paper-deep hover:text-ink aria-[current=page]:text-brand"
    >
      <ShoppingBasket aria-hidden="true" className="size-5" />
      {count > 0 ? (
        <span
          aria-hidden="true"
          data-testid="header-basket-count"
          className="absolute -top-0.5 -right-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-brand px-1 text-[0.7rem] leading-none font-bold text-brand-foreground ring-2 ring-paper"
        >
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </NavLink>
  );
}
