/**
 * Who sells the book and what the buyer may do about it (decision 0073), before the order: a
 * trader's name, geographic address and charity or company number with the cancellation rights
 * and the model cancellation form; a private seller's notice. Every word is read from contracts
 * traders.ts; the listing page and each checkout show this one block.
 */
import {
  CANCELLATION_RIGHTS,
  CANCELLATION_RIGHTS_TITLE,
  modelCancellationForm,
  PRIVATE_SELLER_NOTICE,
  type Trader,
} from '@reshelf/contracts';
import { Store } from 'lucide-react';
import { useId } from 'react';

export function SellerTerms({ trader, className = '' }: { trader: Trader | null; className?: string }) {
  const titleId = useId();
  if (!trader) {
    return (
      <p className={`text-sm text-ink-soft ${className}`} data-testid="private-seller-notice">
        {PRIVATE_SELLER_NOTICE}
      </p>
    );
  }
  return (
    <section
      aria-labelledby={titleId}
      className={`rounded-lg border border-line bg-paper-deep/40 p-4 text-sm text-ink-soft ${className}`}
      data-testid="trader-details"
    >
      <h3 id={titleId} className="flex items-center gap-2 font-semibold text-ink">
        <Store aria-hidden="true" className="size-4" />
        Sold by a {trader.kind === 'charity' ? 'charity' : 'business seller'}: {trader.name}
      </h3>
      <p className="mt-1" data-testid="trader-address">
        {trader.address}
      </p>
      {trader.registration ? (
        <p data-testid="trader-registration">
          {trader.registration.label}: {trader.registration.number}
        </p>
      ) : null}
      {trader.vatNumber ? <p>VAT number: {trader.vatNumber}</p> : null}
      {trader.email ? <p>Email: {trader.email}</p> : null}
      <h4 className="mt-3 font-semibold text-ink">{CANCELLATION_RIGHTS_TITLE}</h4>
      <ul className="mt-1 list-disc space-y-1 pl-5" data-testid="cancellation-rights">
        {CANCELLATION_RIGHTS.map((right) => (
          <li key={right}>{right}</li>
        ))}
      </ul>
      <details className="mt-2">
        <summary className="cursor-pointer font-semibold text-brand underline">
          Model cancellation form
        </summary>
        <pre className="mt-2 font-sans whitespace-pre-wrap" data-testid="cancellation-form">
          {modelCancellationForm(trader)}
        </pre>
      </details>
    </section>
  );
}
