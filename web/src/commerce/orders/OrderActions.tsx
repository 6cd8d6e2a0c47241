/**
 * What the buyer or the seller can do next with an order: only the buttons the server's
 * `actions` allow, each saying what will happen. Every step refreshes the order and its lists.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CARRIER_IDS,
  CARRIERS,
  formatPence,
  type OrderDetail,
  reasonSchema,
  trackingRefSchema,
} from '@reshelf/contracts';
import { PackageCheck, ThumbsUp, Truck } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/SubmitButton.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClasses, Input, Textarea } from '../../components/ui/input.tsx';
import { notify } from '../../components/ui/notify.ts';
import { FormDialog } from '../../kit/index.ts';
import { apiErrorMessage } from '../../lib/api-errors.ts';
import { formatWhen } from '../../lib/dates.ts';
import { cn } from '../../lib/utils.ts';
import { ReportProblemDialog } from '../disputes/DisputePanel.tsx';
import {
  useCancelOrder,
  useConfirmOrder,
  useDispatchOrder,
  useMarkArrived,
  useWithdrawOrderReport,
} from './hooks.ts';
import { Panel } from './OrderParts.tsx';

export function hasActions(order: OrderDetail): boolean {
  return Object.values(order.actions).some(Boolean);
}

// Seller --------------------------------------------------------------------------------------

export function SellerActions({ order }: { order: OrderDetail }) {
  const { actions } = order;
  const [cancelling, setCancelling] = useState(false);
  if (!actions.canDispatch && !actions.canCancel) return null;
  return (
    <Panel title="Posting it your own way? Add the tracking number" testId="seller-actions">
      {order.itemCount > 1 ? (
        <p className="mb-2 text-sm font-semibold text-ink">
          {order.itemCount} books in one parcel: send them together, with one tracking number.
        </p>
      ) : null}
      {order.dispatchBy && actions.canDispatch ? (
        <p className="text-sm text-ink-soft">
          Post it to the address below with any tracked service and add the tracking reference by{' '}
          <strong className="text-ink">{formatWhen(order.dispatchBy)}</strong>.
        </p>
      ) : null}
      {actions.canDispatch ? <DispatchForm order={order} /> : null}
      {actions.canCancel ? (
        <div className="mt-4 border-t border-line pt-4">
          <Button variant="link" onClick={() => setCancelling(true)}>
            I can’t send it
          </Button>
          <ReasonDialog
            open={cancelling}
            onOpenChange={setCancelling}
            order={order}
            title="Cancel this order?"
            description={`We cancel the order and refund the buyer ${formatPence(order.money.refundableMinor)} in full, through the payment provider. The book is taken off sale; you can put it back on sale from your listings.`}
            reasonLabel="Why can’t you send it?"
            what="why you cannot send it"
            confirmLabel="Cancel and refund the buyer"
          />
        </div>
      ) : null}
    </Panel>
  );
}

/** The dispatch form: a carrier must be chosen, and the reference is the server's own rule. */
const dispatchSchema = z.object({
  carrier: z.enum(CARRIER_IDS, { error: 'Choose the carrier you sent it with' }),
  trackingRef: trackingRefSchema,
});

function DispatchForm({ order }: { order: OrderDetail }) {
  const dispatch = useDispatchOrder({
    onSuccess: () => notify.success('Dispatched: we’ve emailed the buyer the tracking reference'),
  });
  const form = useForm<z.input<typeof dispatchSchema>, unknown, z.output<typeof dispatchSchema>>({
    resolver: zodResolver(dispatchSchema),
    // The carrier starts unchosen ("Choose…"): the schema refuses that.
    defaultValues: { carrier: '' as never, trackingRef: '' },
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit((values) => dispatch.mutate({ orderId: order.id, ...values }));
  return (
    <form noValidate onSubmit={submit} className="mt-4 flex flex-col gap-4" aria-label="Dispatch">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Carrier" error={errors.carrier?.message}>
          {(control) => (
            <select {...control} {...form.register('carrier')} className={cn(fieldClasses, 'h-11 pr-8')}>
              <option value="">Choose…</option>
              {CARRIER_IDS.map((id) => (
                <option key={id} value={id}>
                  {CARRIERS[id].label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Tracking reference" error={errors.trackingRef?.message}>
          {(control) => (
            <Input
              {...control}
              {...form.register('trackingRef')}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="uppercase"
            />
          )}
        </Field>
      </div>
      {dispatch.isError ? <Alert tone="error">{apiErrorMessage(dispatch.error)}</Alert> : null}
      <SubmitButton pending={dispatch.isPending} size="default" className="sm:w-auto sm:self-start">
        <Truck aria-hidden="true" />
        Mark as dispatched
      </SubmitButton>
    </form>
  );
}

// Buyer ---------------------------------------------------------------------------------------

type BuyerDialog = 'confirm' | 'problem' | 'not_received' | 'withdraw' | null;

export function BuyerActions({ order }: { order: OrderDetail }) {
  const { actions } = order;
  const [dialog, setDialog] = useState<BuyerDialog>(null);
  const arrived = useMarkArrived({
    onSuccess: () => notify.success('Thanks: check it over, then tap “Everything is OK”'),
    onError: (error) => notify.error(apiErrorMessage(error)),
  });
  const confirm = useConfirmOrder({
    onSuccess: () => {
      setDialog(null);
      notify.success('Order complete: the seller has been paid. Happy reading!');
    },
  });
  const withdraw = useWithdrawOrderReport({
    onSuccess: () => {
      setDialog(null);
      notify.success('Report withdrawn: the order is complete');
    },
  });
  const open = (next: BuyerDialog) => {
    confirm.reset();
    withdraw.reset();
    setDialog(next);
  };
  const any =
    actions.canMarkArrived ||
    actions.canConfirm ||
    actions.canReportProblem ||
    actions.canReportNotReceived ||
    actions.canWithdrawDispute;
  if (!any) return null;
  const seller = order.counterpartName;
  return (
    <Panel title={order.status === 'disputed' ? 'Your report' : 'Has it arrived?'} testId="buyer-actions">
      {order.status === 'dispatched' && order.deliveryDueAt ? (
        <p className="text-sm text-ink-soft">
          It’s on its way and due by <strong className="text-ink">{formatWhen(order.deliveryDueAt)}</strong>.
          When it arrives, check it matches the description.
        </p>
      ) : null}
      {order.status === 'delivered' && order.disputeUntil ? (
        <p className="text-sm text-ink-soft">
          Check it matches the description. If something is wrong, report it by{' '}
          <strong className="text-ink">{formatWhen(order.disputeUntil)}</strong>; after that the order
          completes.
        </p>
      ) : null}
      {order.story.sellerPaid ? (
        <p className="mt-1 text-sm text-ink-soft" data-testid="seller-paid">
          {order.story.sellerPaid}
        </p>
      ) : null}
      {actions.canWithdrawDispute ? (
        <p className="text-sm text-ink-soft">
          If it turned up or it’s fine after all, you can withdraw the report and the order completes.
        </p>
      ) : null}
      <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {actions.canConfirm ? (
          <Button variant="brand" size="lg" onClick={() => open('confirm')}>
            <ThumbsUp aria-hidden="true" />
            Everything is OK
          </Button>
        ) : null}
        {actions.canMarkArrived ? (
          <Button
            variant="outline"
            size="lg"
            disabled={arrived.isPending}
            onClick={() => arrived.mutate({ orderId: order.id })}
          >
            <PackageCheck aria-hidden="true" />
            It’s arrived
          </Button>
        ) : null}
        {actions.canReportProblem ? (
          <Button variant="outline" size="lg" onClick={() => open('problem')}>
            Report a problem
          </Button>
        ) : null}
        {actions.canReportNotReceived ? (
          <Button variant="outline" size="lg" onClick={() => open('not_received')}>
            It hasn’t arrived
          </Button>
        ) : null}
        {actions.canWithdrawDispute ? (
          <Button variant="outline" size="lg" onClick={() => open('withdraw')}>
            Withdraw my report
          </Button>
        ) : null}
      </div>
      {order.status === 'dispatched' && !actions.canReportNotReceived && order.deliveryDueAt ? (
        <p className="mt-3 text-xs text-ink-muted">
          If it hasn’t arrived by {formatWhen(order.deliveryDueAt)}, you can report it missing here.
        </p>
      ) : null}

      <ConfirmDialog
        open={dialog === 'confirm'}
        onOpenChange={(next) => setDialog(next ? 'confirm' : null)}
        title="Is everything OK?"
        description={`This completes the order and releases the payment to ${seller}. You can’t report a problem with it afterwards.`}
        confirmLabel="Yes, everything is OK"
        pending={confirm.isPending}
        error={confirm.isError ? apiErrorMessage(confirm.error) : null}
        onConfirm={() => confirm.mutate({ orderId: order.id })}
      />
      <ConfirmDialog
        open={dialog === 'withdraw'}
        onOpenChange={(next) => setDialog(next ? 'withdraw' : null)}
        title="Withdraw your report?"
        description={`The order completes and ${seller} is paid. You can’t reopen the report afterwards.`}
        confirmLabel="Withdraw the report"
        pending={withdraw.isPending}
        error={withdraw.isError ? apiErrorMessage(withdraw.error) : null}
        onConfirm={() => withdraw.mutate({ orderId: order.id })}
      />
      <ReportProblemDialog
        open={dialog === 'problem'}
        onOpenChange={(next) => setDialog(next ? 'problem' : null)}
        order={order}
      />
      <ReportProblemDialog
        open={dialog === 'not_received'}
        onOpenChange={(next) => setDialog(next ? 'not_received' : null)}
        order={order}
        notReceived
      />
    </Panel>
  );
}

// The seller's cancel, with a reason ----------------------------------------------------------
// (The buyer's reports, "not as described" and "it hasn't arrived", are the dispute report:
// ReportProblemDialog, with photos.)

function ReasonDialog({
  open,
  onOpenChange,
  order,
  title,
  description,
  reasonLabel,
  what,
  confirmLabel,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  order: OrderDetail;
  title: string;
  description: string;
  reasonLabel: string;
  what: string;
  confirmLabel: string;
}) {
  const schema = useMemo(() => z.object({ reason: reasonSchema(what) }), [what]);
  const cancel = useCancelOrder({
    onSuccess: () => notify.success('Order cancelled: the buyer is being refunded in full'),
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      schema={schema}
      defaultValues={{ reason: '' }}
      submitLabel={confirmLabel}
      submitVariant="destructive"
      cancelLabel="Not now"
      onSubmit={({ reason }) => cancel.mutateAsync({ orderId: order.id, reason })}
    >
      {(form) => (
        <Field label={reasonLabel} error={form.formState.errors.reason?.message}>
          {(control) => <Textarea {...control} {...form.register('reason')} rows={4} />}
        </Field>
      )}
    </FormDialog>
  );
}
