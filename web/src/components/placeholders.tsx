/**
 * Loading placeholders (spec section 2, "Global overlays"): a listing, a listings grid of 8 cards,
 * and home. Each announces itself as busy with an accessible label; the shapes are decorative.
 */
import type { ReactNode } from 'react';
import { cn } from '../lib/utils.ts';
import { Skeleton } from './ui/skeleton.tsx';

/** How many card skeletons a listings grid shows while loading (spec: 8). */
export const LISTINGS_GRID_SKELETON_COUNT = 8;

/** How many category cards the home page shows while the categories load. */
export const CATEGORY_SKELETON_COUNT = 6;

function Busy({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className={className}>
      {children}
    </div>
  );
}

/**
 * A list's rows while it loads (orders, offers, notifications, tokens…): one grey block per
 * class list in `rows`, announced as busy with `label`.
 */
export function RowsSkeleton({ label, rows }: { label: string; rows: readonly string[] }) {
  return (
    <Busy label={label} className="flex flex-col gap-3">
      {rows.map((className, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows are fixed placeholders
        <Skeleton key={index} className={className} />
      ))}
    </Busy>
  );
}

/** One listing card (cover, title, author, price) as it will appear in a grid. */
export function ListingCardSkeleton({ className }: { className?: string }) {
  return (
    <div
      data-testid="listing-card-skeleton"
      className={cn('flex flex-col gap-3 rounded-xl border border-line bg-paper p-3 shadow-card', className)}
    >
      <Skeleton className="aspect-[3/4] w-full rounded-lg" />
      <Skeleton className="h-4 w-4/5" />
      <Skeleton className="h-3.5 w-1/2" />
      <Skeleton className="mt-1 h-5 w-1/3" />
    </div>
  );
}

/** A grid of exactly eight listing card skeletons. */
export function ListingsGridSkeleton({ className }: { className?: string }) {
  return (
    <Busy
      label="Loading listings"
      className={cn('grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4', className)}
    >
      {Array.from({ length: LISTINGS_GRID_SKELETON_COUNT }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders that never reorder.
        <ListingCardSkeleton key={index} />
      ))}
    </Busy>
  );
}

/** The listing page: photos beside title, author, condition, price and the buy actions. */
export function ListingSkeleton({ className }: { className?: string }) {
  return (
    <Busy
      label="Loading listing"
      className={cn('mx-auto w-full max-w-6xl px-4 py-4 sm:px-6 md:py-8 lg:px-8 lg:py-12', className)}
    >
      <div className="grid gap-8 md:grid-cols-2 md:gap-12">
        {/* The photo's frame as the page draws it (ListingPhotos.tsx): shorter on a phone. */}
        <Skeleton className="aspect-[3/4] max-h-[46svh] w-full rounded-xl md:max-h-none" />
        <div className="flex flex-col gap-4">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-9 w-11/12" />
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="mt-2 h-8 w-28" />
          <div className="mt-2 flex flex-col gap-2">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-3/4" />
          </div>
          <div className="mt-4 flex flex-col gap-3 sm:flex-row">
            <Skeleton className="h-12 w-full rounded-lg sm:w-44" />
            <Skeleton className="h-12 w-full rounded-lg sm:w-36" />
          </div>
        </div>
      </div>
    </Busy>
  );
}

/** One category card (name and a two-line description). */
export function CategoryCardSkeleton() {
  return (
    <div className="flex min-h-28 flex-col gap-3 rounded-xl border border-line bg-paper p-5 shadow-card">
      <Skeleton className="h-5 w-2/5" />
      <Skeleton className="h-3.5 w-full" />
      <Skeleton className="h-3.5 w-3/4" />
    </div>
  );
}

export function CategoryGridSkeleton({ count = CATEGORY_SKELETON_COUNT }: { count?: number }) {
  return Array.from({ length: count }, (_, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders that never reorder.
    <CategoryCardSkeleton key={index} />
  ));
}

/** The home page: hero copy and actions, then the category grid. */
export function HomeSkeleton() {
  return (
    <Busy label="Loading the home page">
      <div className="border-b border-line bg-paper-deep/60">
        <div className="mx-auto flex w-full max-w-6xl flex-col gap-5 px-4 py-14 sm:px-6 md:py-20 lg:px-8">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-11 w-full max-w-xl" />
          <Skeleton className="h-11 w-3/4 max-w-md" />
          <Skeleton className="h-5 w-full max-w-lg" />
          <div className="mt-3 flex flex-col gap-3 sm:flex-row">
            <Skeleton className="h-12 w-full rounded-full sm:w-40" />
            <Skeleton className="h-12 w-full rounded-lg sm:w-36" />
          </div>
        </div>
      </div>
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 lg:px-8">
        <Skeleton className="h-8 w-56" />
        <Skeleton className="mt-3 h-4 w-72 max-w-full" />
        <div className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <CategoryGridSkeleton />
        </div>
      </div>
    </Busy>
  );
}

/** A generic page while its code loads: a heading and a few paragraphs. */
export function PageSkeleton({ label = 'Loading page' }: { label?: string }) {
  return (
    <Busy label={label} className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
      <Skeleton className="h-9 w-2/3" />
      <div className="mt-6 flex flex-col gap-3">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-5/6" />
      </div>
    </Busy>
  );
}

/** A signed-in page while the session is checked (spec section 2: the guard's placeholder). */
export function SessionSkeleton() {
  return <PageSkeleton label="Checking your session" />;
}

/** The sign-in, sign-up and password pages: a heading, then a card with a form. */
export function AuthFormSkeleton() {
  return (
    <Busy label="Loading page" className="flex flex-1 justify-center bg-paper-deep/60 px-4 py-10 sm:py-16">
      <div className="w-full max-w-md">
        <Skeleton className="h-9 w-3/5" />
        <Skeleton className="mt-3 h-4 w-4/5" />
        <div className="mt-6 flex flex-col gap-5 rounded-xl border border-line bg-paper p-5 shadow-card sm:p-8">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-11 w-full rounded-lg" />
          <Skeleton className="h-4 w-20" />
          <Skeleton className="h-11 w-full rounded-lg" />
          <Skeleton className="mt-2 h-12 w-full rounded-lg" />
        </div>
      </div>
    </Busy>
  );
}

/** The staff area while access is checked (spec section 2): title, then a row of cards. */
export function AdminSkeleton({ label = 'Checking your access' }: { label?: string }) {
  return (
    <Busy label={label} className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <Skeleton className="h-4 w-28" />
      <Skeleton className="mt-3 h-9 w-64 max-w-full" />
      <Skeleton className="mt-3 h-4 w-80 max-w-full" />
      <div className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Skeleton className="h-28 rounded-xl" />
        <Skeleton className="h-28 rounded-xl" />
        <Skeleton className="h-28 rounded-xl" />
      </div>
      <Skeleton className="mt-6 h-56 w-full rounded-xl" />
    </Busy>
  );
}
