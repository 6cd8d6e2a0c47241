/**
 * /admin/settings (also the sidebar's /admin/flags): feature flags. Staff see them; admins
 * switch them on and off, describe them and add new ones. A moderator's attempt is refused by
 * the server with "Access denied: admin role required", shown as a toast.
 */
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { AdminPageFrame, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { useCreateFlag, useDescribeFlag, useToggleFlag } from './hooks.ts';

const refused = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

export function SettingsPage() {
  const flags = trpc.platform.flags.list.useQuery();
  const toggle = useToggleFlag({
    onSuccess: (flag) => {
      toast({ title: `${flag.key} is ${flag.enabled ? 'on' : 'off'}`, description: flag.description });
    },
    onError: refused('Flag not changed'),
  });

  return (
    <AdminPageFrame
      title="Settings"
      description="Feature flags switch parts of Reshelf on and off for everyone, at once. Only admins can change them."
      testId="settings-page"
    >
      <QueryView query={flags} pending="Loading flags…">
        {(data) => (
          <ul className="flex flex-col gap-3" data-testid="flags">
            {data.map((flag) => (
              <li
                key={flag.key}
                data-testid="flag"
                data-key={flag.key}
                className="flex flex-col gap-3 rounded-xl border border-line bg-paper p-4 sm:flex-row sm:items-start sm:justify-between"
              >
                <div className="min-w-0 flex-1">
                  <p className="font-mono text-sm font-semibold">{flag.key}</p>
                  <Description flag={flag} />
                  <p className="mt-1 text-xs text-ink-muted">
                    Last changed {formatDateTime(flag.updatedAt)}
                    {flag.updatedBy ? ` by ${flag.updatedBy}` : ''}
                  </p>
                </div>
                <label className="flex shrink-0 cursor-pointer items-center gap-2 text-sm font-semibold">
                  <button
                    type="button"
                    role="switch"
                    aria-checked={flag.enabled}
                    aria-label={`${flag.key}: ${flag.enabled ? 'on' : 'off'}`}
                    disabled={toggle.isPending && toggle.variables?.key === flag.key}
                    onClick={() => toggle.mutate({ key: flag.key, enabled: !flag.enabled })}
                    className={cn(
                      'relative h-7 w-12 cursor-pointer rounded-full transition-colors disabled:opacity-60',
                      flag.enabled ? 'bg-brand' : 'bg-ink/25',
                    )}
                  >
                    <span
                      className={cn(
                        'absolute top-1 left-1 size-5 rounded-full bg-white shadow transition-transform',
                        flag.enabled && 'translate-x-5',
                      )}
                    />
                  </button>
                  {flag.enabled ? 'On' : 'Off'}
                </label>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <NewFlag />
    </AdminPageFrame>
  );
}

function Description({ flag }: { flag: { key: string; description: string } }) {
  const [editing, setEditing] = useState(false);
  const form = useForm({ defaultValues: { description: flag.description } });
  const describe = useDescribeFlag({
    onSuccess: () => setEditing(false),
    onError: refused('Description not saved'),
  });
  if (!editing) {
    return (
      <p className="mt-1 text-ink-soft">
        {flag.description}{' '}
        <button
          type="button"
          className="cursor-pointer text-sm font-semibold text-brand hover:underline"
          onClick={() => {
            form.reset({ description: flag.description });
            setEditing(true);
          }}
        >
          Edit description
        </button>
      </p>
    );
  }
  return (
    <form
      className="mt-2 flex flex-col gap-2 sm:flex-row"
      onSubmit={form.handleSubmit(({ description }) => describe.mutate({ key: flag.key, description }))}
    >
      <Input aria-label={`Description of ${flag.key}`} maxLength={500} {...form.register('description')} />
      <div className="flex gap-2">
        <Button type="submit" disabled={describe.isPending}>
          Save
        </Button>
        <Button type="button" variant="ghost" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function NewFlag() {
  const form = useForm({ defaultValues: { key: '', description: '' } });
  const create = useCreateFlag({
    onSuccess: (_flag, input) => {
      toast({ title: 'Flag added', description: `${input.key} is off until you switch it on.` });
      form.reset();
    },
    onError: refused('Flag not added'),
  });
  return (
    <form
      onSubmit={form.handleSubmit((values) => create.mutate({ ...values, enabled: false }))}
      className="grid gap-3 rounded-xl border border-dashed border-line p-4 sm:grid-cols-[1fr_2fr_auto] sm:items-end"
    >
      <div className="flex flex-col gap-1">
        <Label htmlFor="flag-key">New flag</Label>
        <Input id="flag-key" placeholder="e.g. gift_aid_exports" {...form.register('key')} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="flag-description">What it does</Label>
        <Input id="flag-description" {...form.register('description')} />
      </div>
      <Button type="submit" variant="outline" disabled={create.isPending}>
        <Plus aria-hidden="true" />
        Add flag
      </Button>
    </form>
  );
}
