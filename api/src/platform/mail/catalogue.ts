/** The transactional emails the product sends, for staff pages that list them. */
import { charityMail } from './charity-mail.ts';
import { EMAIL_TEMPLATES } from './registry.ts';

const example = 'https://reshelf.example/…';

/**
 * Every transactional email: the staff-editable ones from the registry, then the charity
 * emails, which keep their wording in code for now.
 */
export const EMAIL_TEMPLATE_CATALOGUE = [
  ...EMAIL_TEMPLATES.map(({ key, name, subject, sentWhen }) => ({ key, name, subject, sentWhen })),
  {
    key: 'charity-received',
    name: 'Charity application received',
    subject: charityMail.received({ name: 'Your Charity', url: example }).subject,
    sentWhen: 'Someone applies to sell as a charity',
  },
  {
    key: 'charity-application-staff',
    name: 'Charity application waiting (staff)',
    subject: charityMail.applicationForStaff({
      name: 'Your Charity',
      registeredNumber: '1148392',
      register: 'Charity Commission for England and Wales',
      town: 'Banbury',
      applicantEmail: 'applicant@example.org',
      waiting: 1,
      url: example,
    }).subject,
    sentWhen: 'Someone applies to sell as a charity (to every active admin)',
  },
  {
    key: 'charity-approved',
    name: 'Charity approved',
    subject: charityMail.approved({ name: 'Your Charity', url: example }).subject,
    sentWhen: 'Staff approve a charity’s application (to its owner)',
  },
  {
    key: 'charity-rejected',
    name: 'Charity not approved',
    subject: charityMail.rejected({ name: 'Your Charity', reason: '…', url: example }).subject,
    sentWhen: 'Staff reject a charity’s application, with their reason (to its owner)',
  },
  {
    key: 'charity-invited',
    name: 'Invitation to a charity',
    subject: charityMail.invited({ charityName: 'Your Charity', inviterName: 'Its owner', url: example })
      .subject,
    sentWhen: 'A charity’s owner invites someone to its staff',
  },
  {
    key: 'charity-return-requested',
    name: 'Return requested',
    subject: charityMail.returnRequested({ title: 'A Book', reference: 'RS-…', reason: '…', url: example })
      .subject,
    sentWhen: 'A buyer asks to return a charity’s book (to the charity)',
  },
  {
    key: 'charity-return-accepted',
    name: 'Return accepted',
    subject: charityMail.returnAccepted({ title: 'A Book', reference: 'RS-…', address: '…', url: example })
      .subject,
    sentWhen: 'A charity accepts a return, with its address (to the buyer)',
  },
  {
    key: 'charity-return-declined',
    name: 'Return declined',
    subject: charityMail.returnDeclined({ title: 'A Book', reference: 'RS-…', reason: '…', url: example })
      .subject,
    sentWhen: 'A charity declines a return, with its reason (to the buyer)',
  },
  {
    key: 'charity-return-refunded',
    name: 'Return refunded',
    subject: charityMail.returnRefunded({
      title: 'A Book',
      reference: 'RS-…',
      amountMinor: 450,
      url: example,
    }).subject,
    sentWhen: 'A charity has the returned book back and the buyer is refunded',
  },
];
