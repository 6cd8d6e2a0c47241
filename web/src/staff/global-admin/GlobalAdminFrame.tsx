import { ADMIN_TIERS } from '@reshelf/contracts';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { useSession } from '../../lib/session.ts';

const TABS = [
  { to: '/global-admin', label: 'Overview', level: ADMIN_TIERS.read_only },
  { to: '/global-admin/email-templates', label: 'Email templates', level: ADMIN_TIERS.support_agent },
] as const;

/** The heading and tabs shared by the global admin pages. */
export function GlobalAdminFrame({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  const session = useSession();
  const level = session.status === 'signed-in' ? session.user.adminLevel : 0;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 md:py-14 lg:px-8">
      <p className="text-sm font-semibold uppercase tracking-widest text-brand">Global admin</p>
      <h1 className="mt-2 text-3xl font-semibold sm:text-4xl">{title}</h1>
      <div className="mt-3 max-w-2xl text-ink-muted">{description}</div>
      <nav aria-label="Global admin" className="mt-6 flex gap-1 overflow-x-auto border-b border-line">
        {TABS.filter((tab) => level >= tab.level).map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end
            className="-mb-px shrink-0 border-b-2 border-transparent px-3 py-2.5 text-sm font-semibold text-ink-muted transition-colors hover:text-ink aria-[current=page]:border-brand aria-[current=page]:text-ink"
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <div className="mt-8">{children}</div>
    </div>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}
