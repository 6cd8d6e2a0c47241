import { describe, expect, it } from 'vitest';
import { EMAIL_TEMPLATE_CATALOGUE } from './catalogue.ts';
import { EMAIL_TEMPLATES, emailClass } from './registry.ts';

describe('which emails are essential', () => {
  it('classifies every email the product sends as essential, with why', () => {
    const sent = [
      // Saved-search and wants alerts are lists a member may leave (below); every other template is essential.
      ...EMAIL_TEMPLATE_CATALOGUE.map((template) => template.key).filter(
        (key) => !key.startsWith('saved-search.') && !key.startsWith('wants.'),
      ),
      ...['placed', 'dispatched', 'delivered', 'completed', 'cancelled', 'dispute_opened'].map(
        (kind) => `order.${kind}`,
      ),
      'order.staff_refund',
      'order.staff_refund_seller',
      ...['made', 'countered', 'accepted', 'declined', 'cancelled', 'expired'].map((kind) => `offer.${kind}`),
      'listing_removed',
      'listing_restored',
      'offer_message_removed',
      ...EMAIL_TEMPLATES.map((template) => `test.${template.key}`),
    ];
    for (const template of sent) {
      expect([template, emailClass(template)?.essential]).toEqual([template, true]);
    }
    expect(emailClass('confirm-signup')).toEqual({ essential: true, why: 'account' });
    expect(emailClass('reset-password')).toEqual({ essential: true, why: 'security' });
    expect(emailClass('order.placed')).toEqual({ essential: true, why: 'orders' });
  });

  it('puts a non-essential email in the list a person can leave', () => {
    expect(emailClass('wishlist_alerts.price_drop')).toEqual({ essential: false, list: 'wishlist_alerts' });
    expect(emailClass('newsletter.november')).toEqual({ essential: false, list: 'newsletter' });
    expect(emailClass('recommendations.weekly')).toEqual({ essential: false, list: 'recommendations' });
    expect(emailClass('saved-search.alert')).toEqual({ essential: false, list: 'saved_searches' });
    expect(emailClass('saved-search.digest')).toEqual({ essential: false, list: 'saved_searches' });
    expect(emailClass('wants.alert')).toEqual({ essential: false, list: 'wants' });
    expect(emailClass('wants.digest')).toEqual({ essential: false, list: 'wants' });
  });

  it('knows nothing of a template nobody classified, nor of a bare family', () => {
    for (const template of ['made.up', 'order.', 'wishlist_alerts.', 'confirm-signup-2', 'ORDER.placed']) {
      expect([template, emailClass(template)]).toEqual([template, undefined]);
    }
  });
});
