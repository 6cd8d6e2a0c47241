/**
 * /admin/promotions: discount codes besides the built-in WELCOME20 first-order gift. Admins
 * create a code (a percentage or a fixed amount off the item, an optional minimum spend, its
 * dates and limits), edit everything but the code, and pause or resume it; moderators see the
 * table. Uses and the pounds taken off so far come from the orders (decision 0019).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { formatPence, parsePounds, poundsString, WELCOME_GIFT } from '@reshelf/contracts';
import { Pause, Pencil, Play, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field } from '../../components/form/Field.tsx';
import { AdminPageFrame, EmptyState, formatDateTime } from '../../components/staff/AdminPageFrame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { TableScroll } from '../../kit/index.ts';
import { QueryView } from '../../kit/QueryView.tsx';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { type RouterOutputs, trpc } from '../../lib/trpc.ts';
import { cn } from '../../lib/utils.ts';
import { useCreatePromotion, useSetPromotionActive, useUpdatePromotion } from './hooks.ts';

type Promotion = RouterOutputs['commerce']['promotions']['list'][number];

const STATUS: Record<Promotion['status'], { label: string; className: string }> = {
  live: { label: 'Live', className: 'bg-moss-soft text-moss' },
  scheduled: { label: 'Scheduled', className: 'bg-brand/10 text-brand' },
  paused: { label: 'Paused', className: 'bg-amber-100 text-amber-900' },
  exhausted: { label: 'Limit reached', className: 'bg-ink/10 text-ink-soft' },
  ended: { label: 'Ended', className: 'bg-ink/10 text-ink-muted' },
};

const failed = (title: string) => (error: unknown) =>
  toast({ variant: 'destructive', title, description: apiErrorMessage(error) });

function discountOf(promotion: Pick<Promotion, 'kind' | 'percentOff' | 'amountOffMinor'>): string {
  return promotion.kind === 'percent'
    ? `${promotion.percentOff}% off`
    : `${formatPence(promotion.amountOffMinor ?? 0)} off`;
}

export function PromotionsPage() {
  const promotions = trpc.commerce.promotions.list.useQuery();
  const access = trpc.staff.dashboard.access.useQuery();
  const isAdmin = access.data?.isAdmin ?? false;
  // null: closed; 'new': creating; otherwise the promotion being edited.
  const [editing, setEditing] = useState<Promotion | 'new' | null>(null);
  const setActive = useSetPromotionActive({
    onSuccess: (_data, input) => toast({ title: input.active ? 'Code resumed' : 'Code paused' }),
    onError: failed('Code not changed'),
  });

  return (
    <AdminPageFrame
      title="Promotions"
      description={`Discount codes buyers enter at checkout. ${WELCOME_GIFT.code} stays the built-in first-order gift; a buyer gets one discount, whichever takes more off.`}
      testId="promotions-page"
      actions={
        isAdmin ? (
          <Button onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" /> New code
          </Button>
        ) : null
      }
    >
      {!isAdmin && access.data ? (
        <p className="text-sm text-ink-muted">Only admins can create, edit or pause codes.</p>
      ) : null}
      <QueryView
        query={promotions}
        pending="Loading codes…"
        empty={<EmptyState testId="promotions-empty">No promotions yet.</EmptyState>}
      >
        {(data) => (
          <TableScroll label="Promotion codes" className="rounded-xl border border-line bg-paper">
            <table className="w-full min-w-[56rem] text-left text-sm" data-testid="promotions-table">
              <caption className="sr-only">Promotion codes, newest first</caption>
              <thead className="border-b border-line text-ink-muted">
                <tr>
                  <th className="px-4 py-3 font-semibold">Code</th>
                  <th className="px-4 py-3 font-semibold">Discount</th>
                  <th className="px-4 py-3 font-semibold">Runs</th>
                  <th className="px-4 py-3 text-right font-semibold">Used</th>
                  <th className="px-4 py-3 text-right font-semibold">Taken off</th>
                  <th className="px-4 py-3 font-semibold">Status</th>
                  {isAdmin ? (
                    <th className="px-4 py-3 font-semibold">
                      <span className="sr-only">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {data.map((promotion) => (
                  <tr
                    key={promotion.id}
                    className="border-b border-line last:border-0"
                    data-testid="promotion-row"
                    data-code={promotion.code}
                  >
                    <td className="px-4 py-3 font-mono font-semibold">{promotion.code}</td>
                    <td className="px-4 py-3">
                      {discountOf(promotion)}
                      {promotion.minItemMinor ? (
                        <span className="block text-xs text-ink-muted">
                          on {formatPence(promotion.minItemMinor)} or more
                        </span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 whitespace-nowrap">
                      {formatDateTime(promotion.startsAt)}
                      <span className="block text-xs text-ink-muted">
                        to {formatDateTime(promotion.endsAt)}
                      </span>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums" data-testid="promotion-used">
                      {promotion.redemptions}
                      {promotion.totalLimit !== null ? ` of ${promotion.totalLimit}` : ''}
                      <span className="block text-xs text-ink-muted">
                        {promotion.perBuyerLimit === 1 ? 'once' : `${promotion.perBuyerLimit} times`} a buyer
                      </span>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums" data-testid="promotion-discounted">
                      {formatPence(promotion.discountedMinor)}
                    </td>
                    <td className="px-4 py-3">
                      <span
                        className={cn(
                          'rounded px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap',
                          STATUS[promotion.status].className,
                        )}
                        data-testid="promotion-status"
                      >
                        {STATUS[promotion.status].label}
                      </span>
                    </td>
                    {isAdmin ? (
                      <td className="px-4 py-3">
                        <div className="flex justify-end gap-2">
                          <Button variant="outline" size="sm" onClick={() => setEditing(promotion)}>
                            <Pencil aria-hidden="true" /> Edit{' '}
                            <span className="sr-only">{promotion.code}</span>
                          </Button>
                          <Button
                            variant="outline"
                            size="sm"
                            disabled={setActive.isPending}
                            onClick={() => setActive.mutate({ id: promotion.id, active: !promotion.active })}
                          >
                            {promotion.active ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
                            {promotion.active ? 'Pause' : 'Resume'}
                            <span className="sr-only"> {promotion.code}</span>
                          </Button>
                        </div>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryView>
      <Dialog open={editing !== null} onOpenChange={(open) => (open ? undefined : setEditing(null))}>
        {editing !== null ? (
          <PromotionForm
            key={editing === 'new' ? 'new' : editing.id}
            promotion={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
    </AdminPageFrame>
  );
}

/** An ISO time as a datetime-local value in this browser's time zone. */
function toLocalInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const wholeNumber = /^\d+$/;

/** What the form holds: text as typed; checked here, and again by the server. */
const formSchema = z
  .object({
    code: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{3,20}$/, 'Use 3 to 20 letters and digits, like SPRING10')
      .refine((code) => code !== WELCOME_GIFT.code, 'WELCOME20 is the built-in first-order gift'),
    kind: z.enum(['percent', 'fixed']),
    amount: z.string().trim().min(1, 'Say how much the code takes off'),
    minSpend: z.string().trim(),
    startsAt: z.string().min(1, 'Choose when the code starts'),
    endsAt: z.string().min(1, 'Choose when the code ends'),
    totalLimit: z.string().trim(),
    perBuyerLimit: z.string().trim(),
  })
  .superRefine((values, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (values.kind === 'percent') {
      const percent = Number(values.amount);
      if (!wholeNumber.test(values.amount) || percent < 1 || percent > 90) {
        issue('amount', 'Use a whole percentage from 1 to 90');
      }
    } else if (values.amount && !(parsePounds(values.amount) ?? 0)) {
      issue('amount', 'Enter an amount in pounds, like 5 or 2.50');
    }
    if (values.minSpend && !(parsePounds(values.minSpend) ?? 0)) {
      issue('minSpend', 'Enter an amount in pounds, like 10, or leave it empty');
    }
    if (values.startsAt && values.endsAt && new Date(values.endsAt) <= new Date(values.startsAt)) {
      issue('endsAt', 'The end must be after the start');
    }
    if (values.totalLimit && (!wholeNumber.test(values.totalLimit) || Number(values.totalLimit) < 1)) {
      issue('totalLimit', 'Use a whole number, or leave it empty for no limit');
    }
    if (
      !wholeNumber.test(values.perBuyerLimit) ||
      Number(values.perBuyerLimit) < 1 ||
      Number(values.perBuyerLimit) > 100
    ) {
      issue('perBuyerLimit', 'Use a whole number from 1 to 100');
    }
  });
type FormValues = z.input<typeof formSchema>;

function PromotionForm({ promotion, onDone }: { promotion: Promotion | null; onDone: () => void }) {
  const form = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: promotion
      ? {
          code: promotion.code,
          kind: promotion.kind,
          amount:
            promotion.kind === 'percent'
              ? String(promotion.percentOff)
              : ((promotion.amountOffMinor ?? 0) / 100).toFixed(2),
          minSpend: promotion.minItemMinor ? poundsString(promotion.minItemMinor) : '',
          startsAt: toLocalInput(promotion.startsAt),
          endsAt: toLocalInput(promotion.endsAt),
          totalLimit: promotion.totalLimit === null ? '' : String(promotion.totalLimit),
          perBuyerLimit: String(promotion.perBuyerLimit),
        }
      : {
          code: '',
          kind: 'percent',
          amount: '',
          minSpend: '',
          startsAt: toLocalInput(new Date().toISOString()),
          endsAt: '',
          totalLimit: '',
          perBuyerLimit: '1',
        },
  });
  const create = useCreatePromotion({
    onSuccess: (_data, input) => {
      toast({ title: 'Code created', description: `${input.code.toUpperCase()} is ready for checkout.` });
      onDone();
    },
    onError: failed('Code not created'),
  });
  const update = useUpdatePromotion({
    onSuccess: () => {
      toast({ title: 'Code saved' });
      onDone();
    },
    onError: failed('Code not saved'),
  });
  const kind = form.watch('kind');
  const errors = form.formState.errors;

  const submit = form.handleSubmit((values) => {
    const fields = {
      kind: values.kind,
      percentOff: values.kind === 'percent' ? Number(values.amount) : null,
      amountOffMinor: values.kind === 'fixed' ? parsePounds(values.amount) : null,
      minItemMinor: values.minSpend ? parsePounds(values.minSpend) : null,
      startsAt: new Date(values.startsAt).toISOString(),
      endsAt: new Date(values.endsAt).toISOString(),
      totalLimit: values.totalLimit ? Number(values.totalLimit) : null,
      perBuyerLimit: Number(values.perBuyerLimit),
    };
    if (promotion) update.mutate({ ...fields, id: promotion.id });
    else create.mutate({ ...fields, code: values.code });
  });

  return (
    <DialogContent className="max-w-lg" data-testid="promotion-form">
      <DialogTitle>{promotion ? `Edit ${promotion.code}` : 'New promotion code'}</DialogTitle>
      <DialogDescription className="mt-2">
        The discount comes off the item price, never below zero. Times are in your time zone.
      </DialogDescription>
      <form className="mt-4 grid gap-4 sm:grid-cols-2" noValidate onSubmit={(event) => void submit(event)}>
        <Field
          label="Code"
          className="sm:col-span-2"
          hint={promotion ? 'A code cannot be renamed.' : 'Letters and digits, like SPRING10.'}
          error={errors.code?.message}
        >
          {(control) => (
            <Input
              {...control}
              className="uppercase"
              autoComplete="off"
              maxLength={20}
              readOnly={promotion !== null}
              {...form.register('code')}
            />
          )}
        </Field>
        <fieldset className="flex flex-col gap-2 sm:col-span-2">
          <legend className="text-sm font-semibold">Discount</legend>
          <div className="flex flex-wrap gap-4 text-sm">
            <label className="flex cursor-pointer items-center gap-2">
              <input
                type="radio"
                value="percent"
                className="size-4 accent-brand"
                {...form.register('kind')}
              />
              A percentage
            </label>
            <label className="flex cursor-pointer items-center gap-2">
              <input type="radio" value="fixed" className="size-4 accent-brand" {...form.register('kind')} />A
              fixed amount
            </label>
          </div>
        </fieldset>
        <Field
          label={kind === 'percent' ? 'Percentage off' : 'Amount off (£)'}
          error={errors.amount?.message}
        >
          {(control) => <Input {...control} inputMode="decimal" {...form.register('amount')} />}
        </Field>
        <Field label="Minimum spend (£)" optional error={errors.minSpend?.message}>
          {(control) => <Input {...control} inputMode="decimal" {...form.register('minSpend')} />}
        </Field>
        <Field label="Starts" error={errors.startsAt?.message}>
          {(control) => <Input {...control} type="datetime-local" {...form.register('startsAt')} />}
        </Field>
        <Field label="Ends" error={errors.endsAt?.message}>
          {(control) => <Input {...control} type="datetime-local" {...form.register('endsAt')} />}
        </Field>
        <Field label="Total uses" optional hint="Empty: no limit." error={errors.totalLimit?.message}>
          {(control) => <Input {...control} inputMode="numeric" {...form.register('totalLimit')} />}
        </Field>
        <Field label="Uses per buyer" error={errors.perBuyerLimit?.message}>
          {(control) => <Input {...control} inputMode="numeric" {...form.register('perBuyerLimit')} />}
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={create.isPending || update.isPending}>
            {promotion ? 'Save code' : 'Create code'}
          </Button>
        </div>
      </form>
    </DialogContent>
  );
}
