import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';

const TONES = {
  error: { box: 'border-destructive/30 bg-destructive/5', icon: CircleAlert, iconClass: 'text-destructive' },
  success: { box: 'border-moss/30 bg-moss-soft', icon: CircleCheck, iconClass: 'text-moss' },
  info: { box: 'border-line bg-paper-deep/70', icon: Info, iconClass: 'text-ink-muted' },
  /** Worth a second look, but nothing stops the person going on. */
  warning: { box: 'border-accent/60 bg-accent/10', icon: TriangleAlert, iconClass: 'text-accent-foreground' },
} as const;

type AlertProps = {
  tone?: keyof typeof TONES;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Announce the message as soon as it appears (errors and confirmations after an action). */
  live?: boolean;
  'data-testid'?: string;
};

/** A message box: what happened, and what to do. */
export function Alert({ tone = 'info', title, children, className, live = true, ...rest }: AlertProps) {
  const { box, icon: Icon, iconClass } = TONES[tone];
  return (
    <div
      role={live ? (tone === 'error' ? 'alert' : 'status') : undefined}
      className={cn('flex gap-3 rounded-lg border p-4 text-sm', box, className)}
      data-testid={rest['data-testid']}
    >
      <Icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', iconClass)} />
      <div className="min-w-0 flex-1 text-ink-soft">
        {title ? <p className="font-semibold text-ink">{title}</p> : null}
        {children ? <div className={cn(title ? 'mt-1' : undefined, 'break-words')}>{children}</div> : null}
      </div>
    </div>
  );
}
