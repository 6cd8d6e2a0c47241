import type { ReactNode } from 'react';
import { cn } from '../lib/utils.ts';
import { Breadcrumbs, type Crumb } from './Breadcrumbs.tsx';

export type { Crumb };

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
        {crumbs ? <Breadcrumbs crumbs={crumbs} className="mb-3" /> : null}
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
