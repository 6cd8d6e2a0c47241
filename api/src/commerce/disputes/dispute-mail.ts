/**
 * Both sides of a dispute are told of every step: an email and an in-app notification each, in
 * the step's transaction (decision 0028, 0036), with the same words.
 */
import type { Database } from '../../db/index.ts';
import { layout } from '../../platform/mail/templates.ts';
import type { NotificationInput } from '../../platform/notifications/notify.ts';
import { notify } from '../../platform/notifications/notify.ts';
import { type OrderMailDeps, orderParties } from '../orders/order-mail.ts';

interface Side {
  subject: string;
  lines: string[];
}

export async function tellBoth(
  trx: Database,
  deps: OrderMailDeps,
  orderId: string,
  step: { template: `order.${string}`; notice: NotificationInput['kind']; buyer: Side; seller: Side },
): Promise<void> {
  const p = await orderParties(trx, orderId);
  if (!p) return;
  const letters = [
    {
      to: p.buyer,
      side: step.buyer,
      action: { label: 'View your order', url: `${deps.origin}/account/orders/${orderId}` },
    },
    {
      to: p.seller,
      side: step.seller,
      action: { label: 'View the sale', url: `${deps.origin}/account/sales/${orderId}` },
    },
  ];
  await notify(
    trx,
    letters.map(({ to, side, action }) => ({
      userId: to.id,
      kind: step.notice,
      title: `${side.subject}: ${p.title}`,
      body: side.lines.join(' '),
      link: action.url,
      orderId,
    })),
  );
  for (const { to, side, action } of letters) {
    if (!to.email) continue;
    await deps.mailer.send(
      {
        to: to.email,
        subject: `${side.subject}: ${p.title}`,
        text: `${side.lines.join('\n\n')}\n\n${action.label}: ${action.url}\n`,
        html: layout(side.lines, action),
        template: step.template,
        userId: to.id,
      },
      { trx },
    );
  }
}
