import { ArrowRight, HeartHandshake, PackageCheck, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/utils.ts';

const PROMISES = [
  { icon: ShieldCheck, text: 'Buyer protection on every order' },
  { icon: PackageCheck, text: 'Sellers paid when the book arrives' },
  { icon: HeartHandshake, text: 'Charity shops welcome' },
] as const;

export function HomeHero() {
  return (
    <section
      aria-labelledby="home-hero-title"
      className="relative overflow-hidden border-b border-line bg-paper-deep/60"
    >
      <div className="mx-auto grid w-full max-w-6xl items-center gap-12 px-4 py-14 sm:px-6 md:grid-cols-[minmax(0,1.25fr)_minmax(0,1fr)] md:py-20 lg:px-8 lg:py-24">
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-widest text-brand">
            Second-hand books · UK-wide
          </p>
          <h1 id="home-hero-title" className="mt-4 text-4xl font-semibold sm:text-5xl lg:text-6xl">
            Every book deserves another reader.
          </h1>
          <p className="mt-5 max-w-xl text-lg text-ink-muted sm:text-xl">
            Find pre-loved books from readers and charity shops across the UK, or give your own a second
            shelf. Listing one takes under a minute.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button asChild variant="hero" size="lg">
              <Link to="/listings">
                Browse books
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg">
              <Link to="/sell">Sell a book</Link>
            </Button>
          </div>
          <ul className="mt-10 flex flex-col gap-2.5 text-sm text-ink-soft">
            {PROMISES.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-2">
                <Icon aria-hidden="true" className="size-4 shrink-0 text-moss" />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <Bookshelf className="hidden md:block" />
      </div>
    </section>
  );
}

/** Spines on a shelf, drawn with CSS. Purely decorative. */
const SPINES = [
  { height: 'h-52', width: 'w-9', colour: 'bg-brand', band: 'bg-accent/80' },
  { height: 'h-60', width: 'w-12', colour: 'bg-moss', band: 'bg-paper/70' },
  { height: 'h-44', width: 'w-8', colour: 'bg-accent', band: 'bg-ink/60' },
  { height: 'h-56', width: 'w-10', colour: 'bg-ink-soft', band: 'bg-accent/80' },
  { height: 'h-48', width: 'w-11', colour: 'bg-paper-edge', band: 'bg-brand/70' },
  { height: 'h-64', width: 'w-9', colour: 'bg-brand-hover', band: 'bg-paper/70' },
] as const;

function Bookshelf({ className }: { className?: string }) {
  return (
    <div aria-hidden="true" className={cn('relative mx-auto w-full max-w-sm', className)}>
      <div className="absolute -inset-6 rounded-full bg-accent/15 blur-3xl" />
      <div className="relative flex items-end justify-center gap-1.5 px-6">
        {SPINES.map((spine) => (
          <div
            key={`${spine.height}-${spine.colour}`}
            className={cn(
              'relative flex shrink-0 flex-col items-center rounded-t-sm rounded-b-[2px] shadow-[inset_-3px_0_0_rgb(0_0_0/0.12)]',
              spine.height,
              spine.width,
              spine.colour,
            )}
          >
            <span className={cn('mt-5 h-1.5 w-3/5 rounded-full', spine.band)} />
            <span className={cn('mt-1.5 h-1.5 w-2/5 rounded-full', spine.band)} />
            <span className={cn('absolute bottom-5 h-6 w-1/2 rounded-sm', spine.band)} />
          </div>
        ))}
        <div className="relative h-56 w-10 shrink-0 origin-bottom-left rotate-[14deg] rounded-t-sm bg-accent-hover shadow-[inset_-3px_0_0_rgb(0_0_0/0.12)]">
          <span className="absolute top-5 left-1/2 h-1.5 w-3/5 -translate-x-1/2 rounded-full bg-ink/50" />
        </div>
      </div>
      <div className="relative h-3 rounded-sm bg-ink-soft shadow-card" />
      <div className="relative mx-4 h-2 rounded-b-sm bg-ink/80" />
    </div>
  );
}
