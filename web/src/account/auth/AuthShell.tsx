import type { ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';

type AuthShellProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Above the title, e.g. "Step 1 of 2". */
  eyebrow?: ReactNode;
  /** Between the description and the card, e.g. tabs. */
  beforeCard?: ReactNode;
  /** Under the card, e.g. "New to Reshelf? Create an account". */
  footer?: ReactNode;
  width?: 'narrow' | 'wide';
  children: ReactNode;
};

/** The frame of the sign-in, sign-up, email and password pages: a heading, then a card. */
export function AuthShell({
  title,
  description,
  eyebrow,
  beforeCard,
  footer,
  width = 'narrow',
  children,
}: AuthShellProps) {
  return (
    <section
      aria-labelledby="auth-title"
      className="flex flex-1 justify-center border-b border-line bg-paper-deep/60 px-4 py-10 sm:px-6 sm:py-16"
    >
      <div className={cn('w-full', width === 'wide' ? 'max-w-2xl' : 'max-w-md')}>
        {eyebrow ? (
          <p className="text-sm font-semibold uppercase tracking-widest text-brand">{eyebrow}</p>
        ) : null}
        <h1
          id="auth-title"
          className={cn('text-3xl font-semibold sm:text-4xl', eyebrow ? 'mt-2' : undefined)}
        >
          {title}
        </h1>
        {description ? <div className="mt-3 text-ink-muted">{description}</div> : null}
        {beforeCard}
        <div className="mt-6 rounded-xl border border-line bg-paper p-5 shadow-card sm:p-8">{children}</div>
        {footer ? <div className="mt-6 text-center text-sm text-ink-muted">{footer}</div> : null}
      </div>
    </section>
  );
}

/** A text link in the auth pages' style. */
export const textLinkClass = 'font-semibold text-brand underline-offset-4 hover:underline';
