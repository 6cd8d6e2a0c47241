/** A charity as a card: the directory, the charity landing page and the home page's shelf. */

import type { CharitySummary } from '@reshelf/contracts';
import { countOf } from '@reshelf/contracts';
import { ArrowRight, HeartHandshake, MapPin } from 'lucide-react';
import { Link } from 'react-router-dom';
import { mediaUrl } from '../lib/media.ts';

export function CharityCard({ charity }: { charity: CharitySummary }) {
  return (
    <Link
      to={`/charity/${charity.slug}`}
      data-testid="charity-card"
      className="group flex h-full flex-col gap-2 rounded-xl border border-line bg-paper p-5 shadow-card transition hover:border-ink/25 hover:shadow-card-hover"
    >
      <span className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="flex size-11 shrink-0 items-center justify-center overflow-hidden rounded-full bg-moss-soft text-moss"
        >
          {charity.logoUrl ? (
            <img src={mediaUrl(charity.logoUrl)} alt="" className="size-full bg-white object-contain" />
          ) : (
            <HeartHandshake className="size-5" />
          )}
        </span>
        <span className="min-w-0">
          <span className="block font-serif text-lg leading-snug font-semibold">{charity.name}</span>
          {charity.town ? (
            <span className="inline-flex items-center gap-1 text-sm text-ink-muted">
              <MapPin aria-hidden="true" className="size-3.5" />
              {charity.town}
            </span>
          ) : null}
        </span>
      </span>
      {charity.description ? (
        <span className="line-clamp-3 text-sm text-ink-soft">{charity.description}</span>
      ) : null}
      <span className="mt-auto flex items-center justify-between pt-2 text-sm font-semibold text-moss">
        {countOf(charity.activeListings, 'book', 'books')} for sale
        <ArrowRight aria-hidden="true" className="size-4 text-ink-muted group-hover:text-brand" />
      </span>
    </Link>
  );
}
