import { Link } from 'react-router-dom';
import { BundleTiersSection } from '../../commerce/index.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { EmailPreferencesSection } from '../notifications/EmailPreferences.tsx';
import { ApiTokensSection } from './ApiTokensSection.tsx';
import { CloseAccountSection } from './CloseAccountSection.tsx';
import { DownloadDataSection } from './DownloadDataSection.tsx';

/**
 * /account/settings (signed in): which notifications are emailed, the bundle discounts on the
 * person's books, and personal API tokens.
 */
export function SettingsPage() {
  usePageMeta(
    'Account settings',
    'Your email settings, bundle discounts on your books, and API tokens for your scripts and integrations.',
  );
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 md:py-14 lg:px-8">
      <p className="text-sm font-semibold uppercase tracking-widest text-brand">
        <Link to="/account" className="hover:underline">
          Your account
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-semibold sm:text-4xl">Account settings</h1>
      <EmailPreferencesSection />
      <BundleTiersSection owner="seller" />
      <ApiTokensSection />
      <DownloadDataSection />
      <CloseAccountSection />
    </div>
  );
}
