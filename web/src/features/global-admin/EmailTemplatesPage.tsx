import { Mail } from 'lucide-react';
import { AdminSkeleton } from '../../components/placeholders.tsx';
import { usePageMeta } from '../../lib/page-meta.ts';
import { trpc } from '../../lib/trpc.ts';
import { AdminCallFailed } from './access.tsx';
import { GlobalAdminFrame } from './GlobalAdminFrame.tsx';

/** /global-admin/email-templates (support_agent and above): the emails Reshelf sends. */
export function EmailTemplatesPage() {
  usePageMeta('Email templates');
  const templates = trpc.globalAdmin.emailTemplates.useQuery();

  if (templates.isPending) return <AdminSkeleton label="Loading email templates" />;
  if (templates.isError) {
    return (
      <AdminCallFailed
        error={templates.error}
        retry={() => void templates.refetch()}
        retrying={templates.isFetching}
      />
    );
  }

  return (
    <GlobalAdminFrame title="Email templates" description="The emails Reshelf sends, and when it sends them.">
      <ul className="grid gap-4 md:grid-cols-2" data-testid="email-templates">
        {templates.data.map((template) => (
          <li
            key={template.key}
            className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-5 shadow-card"
            data-testid="email-template"
          >
            <div className="flex items-start gap-3">
              <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
                <Mail aria-hidden="true" className="size-4" />
              </span>
              <div className="min-w-0">
                <h2 className="text-lg font-semibold">{template.name}</h2>
                <p className="font-mono text-xs text-ink-muted">{template.key}</p>
              </div>
            </div>
            <dl className="grid gap-2 text-sm">
              <div>
                <dt className="font-semibold text-ink">Subject</dt>
                <dd className="text-ink-soft">{template.subject}</dd>
              </div>
              <div>
                <dt className="font-semibold text-ink">When it is sent</dt>
                <dd className="text-ink-soft">{template.sentWhen}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </GlobalAdminFrame>
  );
}
