/**
 * /admin/emails (also the sidebar's /admin/email-templates): the transactional emails' wording.
 * Staff read them; admins edit the subject and body with {{variables}}, preview with sample
 * values, send a test to their own address (the dev mailbox in development), publish, or go
 * back to the default. The server checks every edit and says what is wrong.
 */
import { LoaderCircle, RotateCcw, Save, Send } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AdminPageFrame, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { type RouterInputs, type RouterOutputs, trpc } from '../../lib/trpc.ts';
import {
  TemplateFields,
  TemplatePicker,
  TemplatePreview,
  useTemplatePreview,
} from './EmailTemplateFields.tsx';
import { useResetEmailTemplate, useUpdateEmailTemplate } from './hooks.ts';

export function EmailsPage() {
  const templates = trpc.staff.emailTemplates.list.useQuery();
  const access = trpc.staff.dashboard.access.useQuery();
  const [params, setParams] = useSearchParams();
  const selectedKey = params.get('template') ?? templates.data?.[0]?.key;
  const selected = templates.data?.find((template) => template.key === selectedKey);

  return (
    <AdminPageFrame
      title="Email templates"
      description="The emails Reshelf sends. Edit the wording with {{variables}}, preview it, and send yourself a test before publishing."
      testId="emails-page"
    >
      <QueryView query={templates} pending="Loading templates…">
        {(data) => (
          <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
            <TemplatePicker
              templates={data}
              selectedKey={selectedKey}
              onSelect={(key) => setParams({ template: key }, { replace: true })}
            />
            {selected ? (
              <TemplateEditor
                key={selected.key}
                template={selected}
                isAdmin={access.data?.isAdmin ?? false}
              />
            ) : null}
          </div>
        )}
      </QueryView>
    </AdminPageFrame>
  );
}

type Template = RouterOutputs['staff']['emailTemplates']['list'][number];
type TemplateKey = RouterInputs['staff']['emailTemplates']['reset']['key'];

function TemplateEditor({ template, isAdmin }: { template: Template; isAdmin: boolean }) {
  const utils = trpc.useUtils();
  const [subject, setSubject] = useState(template.subject);
  const [body, setBody] = useState(template.body);
  useEffect(() => {
    setSubject(template.subject);
    setBody(template.body);
  }, [template.subject, template.body]);
  const changed = subject !== template.subject || body !== template.body;
  const key = template.key as TemplateKey;
  const edit = { key, subject, body };
  const {
    preview,
    problem,
    previewing,
    show: showPreview,
  } = useTemplatePreview(() => utils.staff.emailTemplates.preview.fetch(edit));

  const fail = (title: string) => (error: unknown) =>
    toast({ variant: 'destructive', title, description: apiErrorMessage(error) });
  const update = useUpdateEmailTemplate({
    onSuccess: () => {
      toast({
        title: 'Template published',
        description: `“${template.name}” is sent with this wording from now on.`,
      });
    },
    onError: fail('Template not saved'),
  });
  const reset = useResetEmailTemplate({
    onSuccess: () => {
      toast({
        title: 'Back to the default',
        description: `“${template.name}” uses the default wording again.`,
      });
    },
    onError: fail('Template not reset'),
  });
  const sendTest = trpc.staff.emailTemplates.sendTest.useMutation({
    onSuccess: (result) =>
      toast({ title: 'Test email sent', description: `“${result.subject}” went to ${result.to}.` }),
    onError: fail('Test email not sent'),
  });

  return (
    <section
      className="flex min-w-0 flex-col gap-5"
      aria-labelledby="template-title"
      data-testid="email-template-editor"
    >
      <div>
        <h2 id="template-title" className="text-2xl font-semibold">
          {template.name}
        </h2>
        <p className="text-sm text-ink-muted">
          Sent when: {template.sentWhen}.{' '}
          {template.customised && template.updatedAt
            ? `Edited by ${template.updatedBy ?? 'a former staff member'} on ${formatDateTime(template.updatedAt)}.`
            : 'Default wording.'}
        </p>
      </div>

      <TemplateFields
        variables={template.variables}
        subject={subject}
        body={body}
        onSubject={setSubject}
        onBody={setBody}
        readOnly={!isAdmin}
        problem={problem}
      />

      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void showPreview()} disabled={previewing}>
          {previewing ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
          Preview
        </Button>
        {isAdmin ? (
          <>
            <Button variant="outline" onClick={() => sendTest.mutate(edit)} disabled={sendTest.isPending}>
              {sendTest.isPending ? (
                <LoaderCircle className="animate-spin" aria-hidden="true" />
              ) : (
                <Send aria-hidden="true" />
              )}
              Send a test to me
            </Button>
            <Button
              variant="brand"
              onClick={() => update.mutate(edit)}
              disabled={!changed || update.isPending}
            >
              {update.isPending ? (
                <LoaderCircle className="animate-spin" aria-hidden="true" />
              ) : (
                <Save aria-hidden="true" />
              )}
              Save and publish
            </Button>
            {template.customised ? (
              <Button variant="ghost" onClick={() => reset.mutate({ key })} disabled={reset.isPending}>
                <RotateCcw aria-hidden="true" />
                Use the default wording
              </Button>
            ) : null}
          </>
        ) : (
          <p className="self-center text-sm text-ink-muted">Only admins can change or test emails.</p>
        )}
      </div>

      <TemplatePreview preview={preview} />
    </section>
  );
}
