import { Banknote, HeartHandshake, Package, ScanBarcode } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';

const STEPS = [
  {
    icon: ScanBarcode,
    title: 'List it',
    text: 'Type or scan the ISBN and we fill in the title, author and cover. Add a photo, a condition and a price.',
  },
  {
    icon: Package,
    title: 'Post it',
    text: 'Choose a parcel size when you list; the buyer pays the postage. Send the book and add its tracking.',
  },
  {
    icon: Banknote,
    title: 'Get paid',
    text: 'The money is held safely and released to you as soon as the buyer has the book.',
  },
] as const;

export function HowItWorks() {
  return (
    <section aria-labelledby="how-it-works-title" className="border-t border-line bg-paper-deep/50">
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 md:py-16 lg:px-8">
        <h2 id="how-it-works-title" className="text-3xl font-semibold sm:text-4xl">
          Selling on Reshelf
        </h2>
        <p className="mt-2 max-w-2xl text-ink-muted">
          Clear some shelf space and send your books to new readers.
        </p>
        <ol className="mt-8 grid gap-4 md:grid-cols-3">
          {STEPS.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="rounded-xl border border-line bg-paper p-5 shadow-card">
              <span className="flex items-center gap-3">
                <span className="flex size-10 items-center justify-center rounded-full bg-brand-soft text-brand">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                <h3 className="text-xl font-semibold">
                  <span className="sr-only">Step {index + 1}: </span>
                  {title}
                </h3>
              </span>
              <p className="mt-3 text-sm text-ink-muted">{text}</p>
            </li>
          ))}
        </ol>
        <div className="mt-8 flex flex-col gap-4 rounded-xl bg-moss-soft p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6">
          <div className="flex gap-3">
            <HeartHandshake aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-moss" />
            <p className="text-ink-soft">
              <span className="font-semibold text-ink">Run a charity shop?</span> Sell donated stock in bulk
              and keep track of Gift Aid.
            </p>
          </div>
          <Button asChild variant="secondary" className="bg-paper hover:bg-paper-deep">
            <Link to="/charity">Reshelf for charities</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
