import { Link } from 'react-router-dom';
import { cn } from '../lib/utils.ts';

export interface LinkTab {
  to: string;
  label: string;
  current: boolean;
  count?: number;
}

/** Views of one page kept in the address (?view=, ?status=): links, so Back and sharing work. */
export function LinkTabs({ label, tabs, testId }: { label: string; tabs: LinkTab[]; testId?: string }) {
  return (
    <nav aria-label={label} className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1 border-b border-line" data-testid={testId}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link
              to={tab.to}
              aria-current={tab.current ? 'page' : undefined}
              className={cn(
                '-mb-px flex items-center gap-1.5 border-b-2 px-3 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors',
                tab.current ? 'border-brand text-brand' : 'border-transparent text-ink-muted hover:text-ink',
              )}
            >
              {tab.label}
              {tab.count !== undefined ? (
                <span className="rounded-full bg-paper-deep px-1.5 text-xs text-ink-muted">{tab.count}</span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
