/**
 * Super admins' changes to admin records on /global-admin: grant a tier to an account by its
 * email, change a record's tier or reactivate it, and deactivate it. The server checks the tier
 * again and keeps each change in the audit log; a refusal by tier is the spec's toast.
 */
import { ADMIN_TIER_NAMES, type AdminTier } from '@reshelf/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { z } from 'zod';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { fieldClasses, Input, Label } from '../../components/ui/input.tsx';
import { FormDialog } from '../../kit/FormDialog.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { useTierRefusal } from './access.tsx';
import { useDeactivateAdmin, useSetAdminTier } from './hooks.ts';

export interface AdminRecord {
  userId: string;
  email: string;
  displayName: string;
  tier: string;
  isActive: boolean;
}

const TIER_HINTS: Record<AdminTier, string> = {
  super_admin: 'everything, including these records',
  ops_admin: 'operations, publishing emails, staff roles',
  support_agent: 'support tools and email drafts',
  read_only: 'can look, cannot change',
};

const tierSchema = z.object({ email: z.string(), tier: z.enum(ADMIN_TIER_NAMES) });

/** Grant (no record given) or change/reactivate (a record given). */
export function SetTierDialog({
  record,
  open,
  onOpenChange,
}: {
  record: AdminRecord | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const refused = useTierRefusal();
  const save = useSetAdminTier();
  const title = !record
    ? 'Grant a global-admin tier'
    : record.isActive
      ? `Change ${record.email}’s tier`
      : `Reactivate ${record.email}`;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={
        record
          ? 'The change applies at their next page load. It is kept in the audit log.'
          : 'The person needs a Reshelf account first. The grant is kept in the audit log.'
      }
      schema={tierSchema}
      defaultValues={{ email: record?.email ?? '', tier: (record?.tier as AdminTier) ?? 'read_only' }}
      submitLabel={!record ? 'Grant the tier' : record.isActive ? 'Change the tier' : 'Reactivate'}
      cancelLabel="Not now"
      onSubmit={async ({ email, tier }) => {
        try {
          const result = await save.mutateAsync({ email: record?.email ?? email, tier });
          toast.success(
            record && !record.isActive
              ? 'Admin record reactivated'
              : record
                ? 'Tier changed'
                : 'Tier granted',
            { description: `${result.email} is now ${result.role}.` },
          );
        } catch (failure) {
          // A refusal by tier is the spec's toast, and the dialog closes; anything else shows in it.
          if (!refused(failure)) throw failure;
        }
      }}
    >
      {(form) => (
        <>
          {record ? null : (
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="grant-email">Email address</Label>
              <Input id="grant-email" type="email" autoComplete="off" required {...form.register('email')} />
            </div>
          )}
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="grant-tier">Tier</Label>
            <select id="grant-tier" {...form.register('tier')} className={`${fieldClasses} h-11`}>
              {ADMIN_TIER_NAMES.map((name) => (
                <option key={name} value={name}>
                  {name} — {TIER_HINTS[name]}
                </option>
              ))}
            </select>
          </div>
        </>
      )}
    </FormDialog>
  );
}

export function DeactivateDialog({
  record,
  open,
  onOpenChange,
}: {
  record: AdminRecord;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [error, setError] = useState<string | null>(null);
  const refused = useTierRefusal();
  const deactivate = useDeactivateAdmin({
    onSuccess: (result) => {
      toast.success('Admin record deactivated', {
        description: `${result.email} no longer has global admin.`,
      });
      onOpenChange(false);
    },
    onError: (failure) => {
      if (refused(failure)) onOpenChange(false);
      else setError(apiErrorMessage(failure));
    },
  });
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Deactivate ${record.email}?`}
      description={`They lose ${record.tier} access at their next page load. The record stays here, so you can reactivate it.`}
      confirmLabel="Deactivate"
      confirmVariant="destructive"
      pending={deactivate.isPending}
      error={error}
      onConfirm={() => {
        setError(null);
        deactivate.mutate({ userId: record.userId });
      }}
    />
  );
}
