/**
 * The parts of an email template editor shared by /admin/emails and
 * /global-admin/email-templates: the variables it may use, the subject and body fields, the
 * server's objection to an edit, and the rendered preview.
 */
import { useState } from 'react';
import { Input, Label, Textarea } from '../../components/ui/input.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { cn } from '../../lib/utils.ts';

export interface TemplateVariable {
  name: string;
  description: string;
  required: boolean;
}

/** The list of templates beside the editor: each one's name, key and whether it was changed. */
export function TemplatePicker({
  templates,
  selectedKey,
  onSelect,
}: {
  templates: { key: string; name: string; customised: boolean; draft: unknown }[];
  selectedKey: string | undefined;
  onSelect: (key: string) => void;
}) {
  return (
    <nav aria-label="Email templates">
      <ul className="flex gap-2 overflow-x-auto lg:flex-col" data-testid="email-templates">
        {templates.map((template) => (
          <li key={template.key} className="shrink-0" data-testid="email-template">
            <button
              type="button"
              data-testid="email-template-item"
              aria-current={template.key === selectedKey ? 'true' : undefined}
              onClick={() => onSelect(template.key)}
              className={cn(
                'w-full cursor-pointer rounded-lg border px-3 py-2 text-left text-sm transition-colors',
                template.key === selectedKey
                  ? 'border-brand bg-brand-soft text-brand'
                  : 'border-line bg-paper hover:border-ink/30',
              )}
            >
              <span className="block font-semibold">{template.name}</span>
              <span className="block font-mono text-xs text-ink-muted">{template.key}</span>
              <span className="block text-xs text-ink-muted">
                {template.customised ? 'Edited' : 'Default wording'}
                {template.draft ? ' · draft waiting' : ''}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function TemplateFields({
  variables,
  subject,
  body,
  onSubject,
  onBody,
  readOnly,
  problem,
}: {
  variables: TemplateVariable[];
  subject: string;
  body: string;
  onSubject: (value: string) => void;
  onBody: (value: string) => void;
  readOnly: boolean;
  problem: string | null;
}) {
  return (
    <>
      <div className="rounded-xl border border-line bg-paper p-4">
        <h3 className="text-sm font-semibold">Variables</h3>
        <ul className="mt-2 grid gap-1 text-sm">
          {variables.map((variable) => (
            <li key={variable.name}>
              <code className="rounded bg-paper-deep px-1.5 py-0.5 text-xs">{`{{${variable.name}}}`}</code>{' '}
              {variable.description}
              {variable.required ? ' (must be in the body)' : ''}
            </li>
          ))}
        </ul>
      </div>

      <div className="flex flex-col gap-1.5">
        <Label htmlFor="template-subject">Subject</Label>
        <Input
          id="template-subject"
          value={subject}
          onChange={(event) => onSubject(event.target.value)}
          maxLength={200}
          readOnly={readOnly}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="template-body">Body</Label>
        <Textarea
          id="template-body"
          value={body}
          onChange={(event) => onBody(event.target.value)}
          className="min-h-64 font-mono text-sm"
          readOnly={readOnly}
          aria-describedby="template-body-hint"
        />
        <p id="template-body-hint" className="text-xs text-ink-muted">
          Plain text; leave a blank line between paragraphs. The email’s button is added for you.
        </p>
      </div>
      {problem ? (
        <p role="alert" className="text-sm font-semibold text-destructive" data-testid="template-problem">
          {problem}
        </p>
      ) : null}
    </>
  );
}

export function TemplatePreview({ preview }: { preview: { subject: string; html: string } | null }) {
  if (!preview) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="template-preview">
      <p className="text-sm">
        <span className="font-semibold">Subject:</span>{' '}
        <span data-testid="template-preview-subject">{preview.subject}</span>
      </p>
      <iframe
        title="Email preview"
        srcDoc={preview.html}
        sandbox=""
        className="h-[28rem] w-full rounded-xl border border-line bg-white"
      />
    </div>
  );
}

/**
 * The preview of an edit: `show` renders it through the server (`render`); the server's
 * objection, if any, becomes `problem` — unless `handled` says it dealt with the error itself.
 */
export function useTemplatePreview(
  render: () => Promise<{ subject: string; html: string }>,
  handled: (error: unknown) => boolean = () => false,
) {
  const [preview, setPreview] = useState<{ subject: string; html: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  async function show() {
    setPreviewing(true);
    try {
      const rendered = await render();
      setPreview({ subject: rendered.subject, html: rendered.html });
      setProblem(null);
    } catch (error) {
      setPreview(null);
      if (!handled(error)) setProblem(apiErrorMessage(error));
    } finally {
      setPreviewing(false);
    }
  }
  return { preview, problem, previewing, show };
}
