/** The frame of a staff working page: the eyebrow, title, what it is for, and its content. */
import type { ReactNode } from 'react';
import { usePageMeta } from '../../lib/page-meta.ts';
import { cn } from '../../lib/utils.ts';

export function AdminPageFrame({
  title,
  description,
  actions,
  testId,
  className,
  children,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
  testId?: string;
  className?: string;
  children: ReactNode;
}) {
  usePageMeta(`${title} · Staff`);
  return (
    <div
      className={cn(
        'mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-6 sm:px-6 md:py-8 lg:px-8',
        className,
      )}
      data-testid={testId}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-semibold uppercase tracking-widest text-brand">Reshelf staff</p>
          <h1 className="mt-1 text-3xl font-semibold sm:text-4xl">{title}</h1>
          <p className="mt-2 max-w-2xl text-ink-soft">{description}</p>
        </div>
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}

export { EmptyState, LoadingLine } from '../../kit/feedback.tsx';

export function formatDateTime(value: string): string {
  return new Date(value).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/London',
  });
}
