import { PRODUCT } from '@reshelf/contracts';
import { Bell, Camera, Heart, ScanBarcode, Smartphone } from 'lucide-react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Button } from '../../components/ui/button.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';

const FEATURES = [
  {
    icon: ScanBarcode,
    title: 'Scan to sell',
    text: 'Point your camera at the barcode and the book is listed with its title, author and details.',
  },
  {
    icon: Camera,
    title: 'Photos in seconds',
    text: 'Take photos of the cover and any wear straight from the listing screen.',
  },
  {
    icon: Bell,
    title: 'Know when it sells',
    text: 'A notification the moment a book sells, and again when the buyer has it and you are paid.',
  },
  {
    icon: Heart,
    title: 'Your wishlist, everywhere',
    text: 'Save books on your phone and find them on the website, and the other way round.',
  },
] as const;

export function AppPage() {
  usePageMeta(
    `The ${PRODUCT.name} app`,
    'Buy and sell second-hand books from your phone: scan an ISBN to list a book in seconds.',
  );
  return (
    <>
      <PageHeader
        title={`The ${PRODUCT.name} app`}
        description="Everything you can do on the website, in your pocket, plus a barcode scanner that lists a book in seconds."
      />
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-10 sm:px-6 md:grid-cols-2 lg:px-8">
        <ul className="grid gap-4 sm:grid-cols-2 md:grid-cols-1 lg:grid-cols-2">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border border-line bg-paper p-5 shadow-card">
              <Icon aria-hidden="true" className="size-6 text-brand" />
              <h2 className="mt-3 text-xl font-semibold">{title}</h2>
              <p className="mt-1 text-sm text-ink-muted">{text}</p>
            </li>
          ))}
        </ul>
        <div className="flex flex-col gap-4 rounded-xl bg-paper-deep p-6">
          <Smartphone aria-hidden="true" className="size-8 text-moss" />
          <h2 className="text-2xl font-semibold">Coming to iPhone and Android</h2>
          <p className="text-ink-soft">
            The app is in testing with a small group of sellers and will be in the App Store and Google Play
            soon. Until then, the website works on any phone: add it to your home screen from your browser's
            menu and it opens like an app.
          </p>
          <p className="text-ink-soft">
            Your account, listings and wishlist will carry straight over when the app arrives.
          </p>
          <Button asChild variant="brand" size="lg" className="self-start">
            <Link to="/listings">Browse books now</Link>
          </Button>
        </div>
      </div>
    </>
  );
}
