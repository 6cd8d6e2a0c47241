import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '../lib/utils.ts';

export type Crumb = { to: string; label: string };

/** The top of a page: an optional trail of links, the heading, and a line about the page. */
export function PageHeader({
  title,
  description,
  crumbs,
  children,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  crumbs?: Crumb[];
  children?: ReactNode;
  className?: string;
}) {
  return (
    <header className={cn('border-b border-line bg-paper-deep/50', className)}>
      <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-10 lg:px-8">
        {crumbs?.length ? (
          <nav aria-label="Breadcrumb" className="mb-3 text-sm text-ink-muted">
            <ol className="flex flex-wrap items-center gap-1.5">
              {crumbs.map((crumb) => (
                <li key={crumb.to} className="flex items-center gap-1.5">
                  <Link to={crumb.to} className="underline-offset-4 hover:text-ink hover:underline">
                    {crumb.label}
                  </Link>
                  <span aria-hidden="true">/</span>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        <h1 className="text-3xl font-semibold break-words sm:text-4xl">{title}</h1>
        {description ? <div className="mt-3 max-w-3xl text-lg text-ink-muted">{description}</div> : null}
        {children}
      </div>
    </header>
  );
}

export function PageBody({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 md:py-10 lg:px-8', className)}>
      {children}
    </div>
  );
}
