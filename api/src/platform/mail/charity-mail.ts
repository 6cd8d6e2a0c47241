/**
 * The charity emails: application received (to the applicant, and to every admin), approved or
 * rejected, invitations, and returns.
 */
import { formatPence, plural } from '@reshelf/contracts';
import { layout, type Rendered } from './templates.ts';

function render(subject: string, lines: string[], action?: { label: string; url: string }): Rendered {
  const text = `${lines.join('\n\n')}\n${action ? `\n${action.label}: ${action.url}\n` : ''}`;
  return { subject, text, html: layout(lines, action) };
}

export const charityMail = {
  received: (input: { name: string; url: string }) =>
    render(
      `We’ve received ${input.name}’s application`,
      [
        `Thank you for applying to sell on Reshelf as ${input.name}.`,
        'Our team checks every charity against its register before it can sell. This usually takes one or two working days, and we will email you either way.',
      ],
      { label: 'See your application', url: input.url },
    ),
  /** To every active admin: an application is waiting for review at /admin/charities. */
  applicationForStaff: (input: {
    name: string;
    registeredNumber: string;
    register: string;
    town: string;
    applicantEmail: string;
    waiting: number;
    url: string;
  }) =>
    render(
      `New charity application: ${input.name}`,
      [
        `${input.name} has applied to sell on Reshelf as a charity (${input.town}).`,
        `Registered number: ${input.registeredNumber} (${input.register}). Applicant: ${input.applicantEmail}.`,
        `Please check the number against the register, then approve or reject it. ${plural(
          input.waiting,
          'This is the only application waiting.',
          `${input.waiting} applications are waiting in all.`,
        )}`,
      ],
      { label: 'Review applications', url: input.url },
    ),
  approved: (input: { name: string; url: string }) =>
    render(
      `${input.name} is approved to sell on Reshelf`,
      [
        `Good news: ${input.name} has been approved and now appears in the charity directory.`,
        'You can list books one at a time or many at once from a CSV file, and invite your shop’s staff to help.',
      ],
      { label: 'Open your charity dashboard', url: input.url },
    ),
  rejected: (input: { name: string; reason: string; url: string }) =>
    render(
      `Your application for ${input.name} was not approved`,
      [
        `We’re sorry: we could not approve ${input.name} to sell on Reshelf.`,
        `The reason our team gave: ${input.reason}`,
        'If something can be put right, you are welcome to apply again with the corrected details.',
      ],
      { label: 'Apply again', url: input.url },
    ),
  invited: (input: { charityName: string; inviterName: string; url: string }) =>
    render(
      `${input.inviterName} invited you to sell for ${input.charityName}`,
      [
        `${input.inviterName} has invited you to join ${input.charityName} on Reshelf, to list and manage its books.`,
        'Sign in (or create an account) with this email address, then accept the invitation on the charity dashboard.',
      ],
      { label: 'Accept the invitation', url: input.url },
    ),
  returnRequested: (input: { title: string; reference: string; reason: string; url: string }) =>
    render(
      `Return requested: ${input.title} (${input.reference})`,
      [
        `The buyer of “${input.title}” (order ${input.reference}) has asked to return it.`,
        `Their reason: ${input.reason}`,
        'Please accept or decline the request from your charity dashboard.',
      ],
      { label: 'Answer the request', url: input.url },
    ),
  returnAccepted: (input: { title: string; reference: string; address: string; url: string }) =>
    render(
      `Your return of ${input.title} was accepted`,
      [
        `The charity has accepted your return of “${input.title}” (order ${input.reference}).`,
        `Please post the book back to: ${input.address}. Keep proof of postage.`,
        'We will refund you as soon as the charity has the book back.',
      ],
      { label: 'See your order', url: input.url },
    ),
  returnDeclined: (input: { title: string; reference: string; reason: string; url: string }) =>
    render(
      `Your return of ${input.title} was declined`,
      [
        `The charity has declined your return of “${input.title}” (order ${input.reference}).`,
        `Their reason: ${input.reason}`,
        'If you think this is wrong, contact us from the help centre and we will look into it.',
      ],
      { label: 'See your order', url: input.url },
    ),
  returnRefunded: (input: { title: string; reference: string; amountMinor: number; url: string }) =>
    render(
      `Refund of ${formatPence(input.amountMinor)} for ${input.title}`,
      [
        `The charity has your returned copy of “${input.title}” (order ${input.reference}).`,
        `We have refunded ${formatPence(input.amountMinor)} to your original payment method: the book and its postage. It can take up to 5 working days to show.`,
      ],
      { label: 'See your order', url: input.url },
    ),
};
