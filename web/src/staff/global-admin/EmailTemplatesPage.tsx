/**
 * /global-admin/email-templates (support_agent and above): the same templates as /admin/emails.
 * Support agents write drafts (preview, test to themselves, save, discard); nothing is sent from
 * a draft until an ops admin or above publishes it. The server checks each tier again.
 */

import { ADMIN_TIERS } from '@reshelf/contracts';
import { LoaderCircle, Save, Send, Trash2, Upload } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { AdminSkeleton } from '../../components/placeholders.tsx';
import { Button } from '../../components/ui/button.tsx';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.ts';
import { type RouterInputs, type RouterOutputs, trpc } from '../../lib/trpc.ts';
import {
  TemplateFields,
  TemplatePicker,
  TemplatePreview,
  useTemplatePreview,
} from '../email-templates/EmailTemplateFields.tsx';
import { AdminCallFailed, useTierRefusal } from './access.tsx';
import { formatDate, GlobalAdminFrame } from './GlobalAdminFrame.tsx';
import { useDiscardTemplateDraft, usePublishTemplate, useSaveTemplateDraft } from './hooks.ts';

type Template = RouterOutputs['staff']['globalAdmin']['emailTemplates'][number];
type TemplateKey = RouterInputs['staff']['globalAdmin']['publishEmailTemplate']['key'];

export function EmailTemplatesPage() {
  usePageMeta('Email templates');
  const templates = trpc.staff.globalAdmin.emailTemplates.useQuery();
  const session = useSession();
  const level = session.status === 'signed-in' ? session.user.adminLevel : 0;
  const [params, setParams] = useSearchParams();

  return (
    <QueryView
      query={templates}
      pending={<AdminSkeleton label="Loading email templates" />}
      error={() => (
        <AdminCallFailed
          error={templates.error}
          retry={() => void templates.refetch()}
          retrying={templates.isFetching}
        />
      )}
    >
      {(data) => {
        const selectedKey = params.get('template') ?? data[0]?.key;
        const selected = data.find((template) => template.key === selectedKey);

        return (
          <GlobalAdminFrame
            title="Email templates"
            description="The emails Reshelf sends. Support agents write drafts; an ops admin or above publishes them, and only then are they sent."
          >
            <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
              <TemplatePicker
                templates={data}
                selectedKey={selectedKey}
                onSelect={(key) => setParams({ template: key }, { replace: true })}
              />
              {selected ? (
                <DraftEditor
                  key={`${selected.key}:${selected.draft?.updatedAt ?? ''}:${selected.updatedAt ?? ''}`}
                  template={selected}
                  canPublish={level >= ADMIN_TIERS.ops_admin}
                />
              ) : null}
            </div>
          </GlobalAdminFrame>
        );
      }}
    </QueryView>
  );
}

function DraftEditor({ template, canPublish }: { template: Template; canPublish: boolean }) {
  const utils = trpc.useUtils();
  const refused = useTierRefusal();
  const start = template.draft ?? template;
  const [subject, setSubject] = useState(start.subject);
  const [body, setBody] = useState(start.body);
  const key = template.key as TemplateKey;
  const edit = { key, subject, body };
  const {
    preview,
    problem,
    previewing,
    show: showPreview,
  } = useTemplatePreview(() => utils.staff.globalAdmin.previewEmailTemplate.fetch(edit), refused);
  const unsaved = subject !== start.subject || body !== start.body;

  const fail = (title: string) => (error: unknown) => {
    if (!refused(error)) toast.error(title, { description: apiErrorMessage(error) });
  };
  const save = useSaveTemplateDraft({
    onSuccess: () => {
      toast.success('Draft saved', { description: 'Nothing is sent from it until it is published.' });
    },
    onError: fail('Draft not saved'),
  });
  const discard = useDiscardTemplateDraft({
    onSuccess: () => {
      toast.success('Draft discarded', { description: `“${template.name}” keeps the wording in use.` });
    },
    onError: fail('Draft not discarded'),
  });
  const publish = usePublishTemplate({
    onSuccess: () => {
      toast.success('Draft published', {
        description: `“${template.name}” is sent with this wording from now on.`,
      });
    },
    onError: fail('Draft not published'),
  });
  const sendTest = trpc.staff.globalAdmin.sendTestEmail.useMutation({
    onSuccess: (result) =>
      toast.success('Test email sent', { description: `“${result.subject}” went to ${result.to}.` }),
    onError: fail('Test email not sent'),
  });

  const spinner = <LoaderCircle className="animate-spin" aria-hidden="true" />;
  return (
    <section
      className="flex min-w-0 flex-col gap-5"
      aria-labelledby="template-title"
      data-testid="global-template-editor"
    >
      <div>
        <h2 id="template-title" className="text-2xl font-semibold">
          {template.name}
        </h2>
        <p className="text-sm text-ink-muted">Sent when: {template.sentWhen}.</p>
        <p className="mt-2 text-sm" data-testid="draft-state">
          {template.draft
            ? `Draft by ${template.draft.updatedBy ?? 'a former staff member'}${
                template.draft.updatedAt ? ` on ${formatDate(template.draft.updatedAt)}` : ''
              }, waiting to be published. In use: “${template.subject}”.`
            : 'No draft. You are editing a copy of the wording in use.'}
        </p>
      </div>

      <TemplateFields
        variables={template.variables}
        subject={subject}
        body={body}
        onSubject={setSubject}
        onBody={setBody}
        readOnly={false}
        problem={problem}
      />

      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void showPreview()} disabled={previewing}>
          {previewing ? spinner : null}
          Preview
        </Button>
        <Button variant="outline" onClick={() => sendTest.mutate(edit)} disabled={sendTest.isPending}>
          {sendTest.isPending ? spinner : <Send aria-hidden="true" />}
          Send a test to me
        </Button>
        <Button variant="brand" onClick={() => save.mutate(edit)} disabled={!unsaved || save.isPending}>
          {save.isPending ? spinner : <Save aria-hidden="true" />}
          Save draft
        </Button>
        {template.draft ? (
          <Button variant="ghost" onClick={() => discard.mutate({ key })} disabled={discard.isPending}>
            <Trash2 aria-hidden="true" />
            Discard draft
          </Button>
        ) : null}
        {canPublish && template.draft ? (
          <Button
            variant="brand"
            onClick={() => publish.mutate({ key })}
            disabled={unsaved || publish.isPending}
            title={unsaved ? 'Save the draft first' : undefined}
          >
            {publish.isPending ? spinner : <Upload aria-hidden="true" />}
            Publish draft
          </Button>
        ) : null}
      </div>
      {!canPublish ? (
        <p className="text-sm text-ink-muted">An ops admin or above publishes drafts.</p>
      ) : unsaved && template.draft ? (
        <p className="text-sm text-ink-muted">Save your changes to the draft before publishing it.</p>
      ) : null}

      <TemplatePreview preview={preview} />
    </section>
  );
}
