import { Link } from 'react-router-dom';
import { cn } from '../lib/utils.ts';

export type Crumb = { to: string; label: string };

/**
 * The trail of links above a page's heading, the one on every page that has one: "/" between
 * two links and none after the last, for the heading below is the page itself.
 */
export function Breadcrumbs({ crumbs, className }: { crumbs: Crumb[]; className?: string }) {
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className={cn('text-sm text-ink-muted', className)}>
      <ol className="flex flex-wrap items-center gap-1.5">
        {crumbs.map((crumb, index) => (
          <li key={crumb.to} className="flex items-center gap-1.5">
            {index > 0 ? <span aria-hidden="true">/</span> : null}
            <Link to={crumb.to} className="underline-offset-4 hover:text-ink hover:underline">
              {crumb.label}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
