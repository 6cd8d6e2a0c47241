/**
 * /help-centre/buyer-protection: the protection rules, written from the same constants the API
 * enforces (PROTECTION_RULES in packages/contracts), so the page and the code cannot disagree.
 */
import {
  COMMERCIAL_DEFAULTS,
  countOf,
  DISPUTE_PROBLEM_LABELS,
  DISPUTE_PROBLEMS,
  PROTECTION_RULES,
} from '@reshelf/contracts';
import { PageBody, PageHeader } from '../../components/PageHeader.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';

const money = (pence: number) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format(pence / 100);

export function ProtectionHelpPage() {
  usePageMeta('Buyer protection and returns');
  const r = PROTECTION_RULES;
  return (
    <div data-testid="protection-help">
      <PageHeader
        title="Buyer protection and returns"
        crumbs={[{ to: '/help-centre', label: 'Help centre' }]}
        description="What happens when a book is not what you expected, and who pays for what."
      />
      <PageBody>
        <div className="flex max-w-3xl flex-col gap-6 text-base leading-relaxed">
          <section>
            <h2 className="text-xl font-semibold">What is covered</h2>
            <ul className="mt-2 list-disc pl-6">
              {r.covered.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <h3 className="mt-4 font-semibold">Not covered</h3>
            <ul className="mt-2 list-disc pl-6">
              {r.notCovered.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </section>
          <section>
            <h2 className="text-xl font-semibold">Reporting a problem</h2>
            <p className="mt-2">
              Report it within {countOf(r.reportWindowDays, 'day', 'days')} of delivery from your order page
              (after that the order completes and the seller is paid). A parcel that never came can be
              reported once the carrier’s delivery window has passed. Say what went wrong, describe it, and
              add up to {r.maxPhotos} photos. The seller’s payment stays on hold until it is settled.
            </p>
          </section>
          <section>
            <h2 className="text-xl font-semibold">The seller answers</h2>
            <p className="mt-2">
              The seller has {countOf(r.sellerResponseWorkingDays, 'working day', 'working days')} (weekends
              and UK bank holidays not counted) to answer, in one of four ways:
            </p>
            <ul className="mt-2 list-disc pl-6">
              <li>refund you in full;</li>
              <li>offer part of the price back while you keep the book (you accept or refuse);</li>
              <li>ask for the book back: you are refunded when it arrives;</li>
              <li>disagree, with their own words and photos.</li>
            </ul>
            <p className="mt-2">
              If the seller does not answer in time, if they disagree, or if you refuse their offer, our team
              reads both sides and decides: a full refund, a partial refund (up to what you paid), the book
              back first, or payment to the seller.
            </p>
          </section>
          <section>
            <h2 className="text-xl font-semibold">Sending a book back</h2>
            <p className="mt-2">
              Post it with tracking and add the tracking reference on your order. The refund goes out when the
              seller confirms it came back.
            </p>
            <p className="mt-2" data-testid="return-postage-rule">
              When the seller pays the return postage, you get a prepaid return label (or a QR code to show at
              the Post Office) on your order page. If you post it your own way instead, enter what you paid
              (from your receipt) with the tracking: your refund includes it, up to{' '}
              {money(r.returnPostageCapMinor)}
              (the price of our dearest label), taken from the seller’s payment. A refund can never be more
              than you paid for the order, so when the whole order comes back you get back everything you
              paid, and no more. For a change of mind, you pay to post it back.
            </p>
            <table className="mt-3 w-full text-left text-sm" data-testid="return-postage-table">
              <thead>
                <tr className="border-b border-line">
                  <th className="py-2 pr-4">What went wrong</th>
                  <th className="py-2">Who pays the return postage</th>
                </tr>
              </thead>
              <tbody>
                {DISPUTE_PROBLEMS.filter((p) => p !== 'not_received').map((p) => (
                  <tr key={p} className="border-b border-line">
                    <td className="py-2 pr-4">{DISPUTE_PROBLEM_LABELS[p]}</td>
                    <td className="py-2">The {r.returnPostageBy[p]}</td>
                  </tr>
                ))}
                <tr>
                  <td className="py-2 pr-4">Changed your mind (where returns are accepted)</td>
                  <td className="py-2">The {r.changeOfMindReturnPostageBy}</td>
                </tr>
              </tbody>
            </table>
          </section>
          <section>
            <h2 className="text-xl font-semibold">Returns for any reason</h2>
            <p className="mt-2">
              Charities sell as traders: you can return a charity’s book for any reason within{' '}
              {countOf(r.charityReturnDays, 'day', 'days')} of delivery and get back the price and postage
              (not the buyer protection fee). Private sellers who accept returns say so on their listings;
              their returns run for {countOf(r.privateReturnDays, 'day', 'days')} after delivery.
            </p>
          </section>
          <p className="text-sm text-ink-muted">
            Buyer protection costs {money(COMMERCIAL_DEFAULTS.buyerProtectionFixedMinor)} plus{' '}
            {COMMERCIAL_DEFAULTS.buyerProtectionPercent}% of the price, added at checkout.
          </p>
        </div>
      </PageBody>
    </div>
  );
}
