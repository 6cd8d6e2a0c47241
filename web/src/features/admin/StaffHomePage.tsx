import { ArrowRight, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { useSession } from '../auth/session.ts';

/**
 * /admin index, for now: who you are as staff. The dashboard (disputes, listings, revenue)
 * replaces this in its own issue; until then nothing here is made up.
 */
export function StaffHomePage() {
  usePageMeta('Staff area');
  const session = useSession();
  // The guard has already answered this query (the person is staff).
  const access = trpc.admin.access.useQuery();
  const user = session.status === 'signed-in' ? session.user : null;
  const roles = access.data?.roles ?? [];

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 md:py-14 lg:px-8" data-testid="staff-home">
      <p className="text-sm font-semibold uppercase tracking-widest text-brand">Reshelf staff</p>
      <h1 className="mt-2 text-3xl font-semibold sm:text-4xl">Staff area</h1>
      {user ? (
        <p className="mt-3 text-ink-muted">
          Signed in as <strong className="text-ink">{user.displayName || user.email}</strong>{' '}
          <span className="break-words">({user.email})</span>.
        </p>
      ) : null}

      <section
        aria-labelledby="staff-roles-title"
        className="mt-8 max-w-xl rounded-xl border border-line bg-paper p-5 shadow-card sm:p-6"
      >
        <h2 id="staff-roles-title" className="flex items-center gap-2.5 text-xl font-semibold">
          <span className="flex size-9 items-center justify-center rounded-full bg-brand-soft text-brand">
            <ShieldCheck aria-hidden="true" className="size-4.5" />
          </span>
          Your roles
        </h2>
        <ul className="mt-4 flex flex-wrap gap-2" data-testid="staff-roles">
          {roles.map((role) => (
            <li key={role} className="rounded-full bg-ink px-3 py-1 text-sm font-semibold text-paper">
              {role}
            </li>
          ))}
        </ul>
      </section>

      {user && user.adminLevel > 0 ? (
        <Link
          to="/global-admin"
          className="mt-6 inline-flex items-center gap-1 font-semibold text-brand underline-offset-4 hover:underline"
        >
          Global admin
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      ) : null}
    </div>
  );
}
