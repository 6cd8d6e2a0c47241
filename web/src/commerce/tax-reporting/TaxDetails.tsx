/**
 * "Details for HMRC" on /account/payouts (decision 0047): the seller's sales and consideration
 * this year against the reporting threshold, and the details the law needs once they pass it
 * (name, date of birth, address, NI number or UTR; a charity's registered details). Until given,
 * a seller past the threshold has their further payouts held.
 */
import {
  countOf,
  formatPence,
  REPORTING_DATES,
  type ReportingDetailsInput,
  type ReportingStatus,
} from '@reshelf/contracts';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { trpc } from '../../lib/trpc.ts';

const SAYS: Record<ReportingStatus['state'], string> = {
  not_needed:
    'The law asks platforms like Reshelf to report sellers’ sales to HMRC once a seller makes 30 sales or more than €2,000 in a year. You are well under that, so we need nothing from you yet.',
  asked:
    'You are close to 30 sales or €2,000 this year. After that the law asks us to report your sales to HMRC, and we hold your payouts until we have these details. Give them now and nothing waits.',
  required:
    'You have passed 30 sales or €2,000 this year, so the law asks us to report your sales to HMRC. Your further payouts are on hold until you give these details.',
  provided: 'Thank you: we have your details for HMRC reporting.',
};

export function TaxDetails({ status }: { status: ReportingStatus }) {
  const [editing, setEditing] = useState(status.state === 'asked' || status.state === 'required');
  return (
    <section
      id="tax-details"
      aria-labelledby="tax-details-title"
      className="mt-8 scroll-mt-24 rounded-xl border border-line bg-paper p-5 shadow-card"
      data-testid="tax-details"
      data-state={status.state}
    >
      <h2 id="tax-details-title" className="text-xl font-semibold">
        Details for HMRC
      </h2>
      <p className="mt-2 text-ink">{SAYS[status.state]}</p>
      {status.state === 'asked' || status.state === 'required' ? (
        <p className="mt-2 font-medium text-ink" data-testid="tax-details-due">
          Give them by {REPORTING_DATES.collectBy.label} {status.year}.
        </p>
      ) : null}
      <p className="mt-2 text-sm text-ink-muted" data-testid="tax-year-totals">
        {status.year} so far: {countOf(status.sales, 'sale', 'sales')},{' '}
        {formatPence(status.considerationMinor)} (reported from {status.salesThreshold} sales or more than{' '}
        {formatPence(status.considerationThresholdMinor)}, about €2,000).
      </p>
      {status.details && !editing && (
        <dl
          className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm"
          data-testid="tax-details-given"
        >
          <dt className="text-ink-muted">Name</dt>
          <dd>{status.details.name}</dd>
          {status.details.dateOfBirth && (
            <>
              <dt className="text-ink-muted">Date of birth</dt>
              <dd>{status.details.dateOfBirth}</dd>
            </>
          )}
          <dt className="text-ink-muted">Address</dt>
          <dd>{status.details.address}</dd>
          {status.details.taxReference && (
            <>
              <dt className="text-ink-muted">Tax reference</dt>
              <dd>{status.details.taxReference}</dd>
            </>
          )}
        </dl>
      )}
      <ReportingCopies />
      {editing ? (
        <DetailsForm status={status} onSaved={() => setEditing(false)} />
      ) : (
        <Button variant="outline" className="mt-4" onClick={() => setEditing(true)}>
          {status.details ? 'Change your details' : 'Give your details now'}
        </Button>
      )}
    </section>
  );
}

/** The years the seller was reported for: each a link to their copy (decision 0078). */
function ReportingCopies() {
  const copies = trpc.commerce.taxReporting.member.copies.useQuery();
  if (!copies.data?.length) return null;
  return (
    <div className="mt-3 text-sm" data-testid="reporting-copies">
      <h3 className="font-semibold">What we reported to HMRC</h3>
      <ul className="mt-1 flex flex-wrap gap-3">
        {copies.data.map((copy) => (
          <li key={copy.year}>
            <Link className="text-brand underline" to={`/account/payouts/reporting/${copy.year}`}>
              Your copy for {copy.year}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function DetailsForm({ status, onSaved }: { status: ReportingStatus; onSaved: () => void }) {
  const utils = trpc.useUtils();
  // Whose details: the charity's, the member's own, or their company's (a business seller, decision 0073).
  const [who, setWho] = useState<'charity' | 'own' | 'company'>(status.isCharity ? 'charity' : 'own');
  const asCharity = who === 'charity';
  const save = trpc.commerce.taxReporting.member.saveDetails.useMutation({
    onSuccess: () => {
      notify.success('Saved: thank you');
      void utils.commerce.taxReporting.member.status.invalidate();
      void utils.commerce.payouts.member.invalidate();
      onSaved();
    },
  });
  const charity = status.charity;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '');
    const address = {
      addressLine1: text('addressLine1'),
      addressLine2: text('addressLine2'),
      town: text('town'),
      postcode: text('postcode'),
    };
    const input: ReportingDetailsInput = asCharity
      ? {
          kind: 'charity',
          legalName: text('legalName'),
          registeredNumber: text('registeredNumber'),
          utr: text('utr'),
          ...address,
        }
      : who === 'company'
        ? {
            kind: 'company',
            legalName: text('legalName'),
            companyNumber: text('companyNumber'),
            utr: text('utr'),
            ...address,
          }
        : {
            kind: 'individual',
            firstName: text('firstName'),
            lastName: text('lastName'),
            dateOfBirth: text('dateOfBirth'),
            nino: text('nino'),
            utr: text('utr'),
            ...address,
          };
    save.mutate(input);
  };
  const field = (name: string, label: string, props: Record<string, unknown> = {}) => (
    <div className="flex flex-col gap-1">
      <Label htmlFor={`tax-${name}`}>{label}</Label>
      <Input id={`tax-${name}`} name={name} {...props} />
    </div>
  );
  return (
    <form className="mt-4 flex flex-col gap-3" onSubmit={submit} data-testid="tax-details-form" noValidate>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">Whose details</legend>
        {status.isCharity ? (
          <label className="flex items-center gap-2">
            <input type="radio" checked={asCharity} onChange={() => setWho('charity')} /> The charity’s
          </label>
        ) : null}
        <label className="flex items-center gap-2">
          <input type="radio" checked={who === 'own'} onChange={() => setWho('own')} /> My own
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" checked={who === 'company'} onChange={() => setWho('company')} /> My company’s
        </label>
      </fieldset>
      {who === 'company' ? (
        <>
          {field('legalName', 'Company’s legal name', { autoComplete: 'organization', required: true })}
          {field('companyNumber', 'Company number', { required: true })}
        </>
      ) : asCharity ? (
        <>
          {field('legalName', 'Registered name', { defaultValue: charity?.legalName ?? '', required: true })}
          {field('registeredNumber', 'Registered charity number', {
            defaultValue: charity?.registeredNumber ?? '',
            required: true,
          })}
        </>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          {field('firstName', 'First name', { autoComplete: 'given-name', required: true })}
          {field('lastName', 'Last name', { autoComplete: 'family-name', required: true })}
          {field('dateOfBirth', 'Date of birth', { type: 'date', autoComplete: 'bday', required: true })}
          {field('nino', 'National Insurance number', { placeholder: 'AB 12 34 56 C' })}
        </div>
      )}
      {field(
        'utr',
        asCharity
          ? 'UTR (if the charity has one)'
          : who === 'company'
            ? 'UTR (if the company has one)'
            : 'Or your UTR (10 digits)',
        {
          inputMode: 'numeric',
        },
      )}
      <div key={who} className="grid gap-3 sm:grid-cols-2">
        {field('addressLine1', 'Address', {
          autoComplete: 'address-line1',
          defaultValue: asCharity ? (charity?.addressLine1 ?? '') : '',
          required: true,
        })}
        {field('addressLine2', 'Address line 2 (optional)', {
          autoComplete: 'address-line2',
          defaultValue: asCharity ? (charity?.addressLine2 ?? '') : '',
        })}
        {field('town', 'Town or city', {
          autoComplete: 'address-level2',
          defaultValue: asCharity ? (charity?.town ?? '') : '',
          required: true,
        })}
        {field('postcode', 'Postcode', {
          autoComplete: 'postal-code',
          defaultValue: asCharity ? (charity?.postcode ?? '') : '',
          required: true,
        })}
      </div>
      {save.error && (
        <p role="alert" className="text-sm text-destructive" data-testid="tax-details-error">
          {save.error.message}
        </p>
      )}
      <p className="text-xs text-ink-muted">
        We keep these only to report to HMRC as the law requires, and never ask for your bank details.
      </p>
      <Button type="submit" variant="brand" className="self-start" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save details'}
      </Button>
    </form>
  );
}
