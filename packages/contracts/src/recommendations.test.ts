import { describe, expect, it } from 'vitest';
import { explainRecommendation, RECOMMENDATION_REASONS } from './recommendation-reasons.ts';
import { sellerAnalyticsSchema } from './recommendations.ts';

describe('explaining a recommendation', () => {
  it('names the book, author or genre behind it', () => {
    expect(explainRecommendation('wishlist', 'The Hobbit')).toBe('Because you wishlisted The Hobbit');
    expect(explainRecommendation('co_purchase', 'Dune')).toBe('Readers who bought Dune also bought this');
    expect(explainRecommendation('purchase', 'Emma')).toBe('Because you bought Emma');
    expect(explainRecommendation('view', 'Mort')).toBe('Because you looked at Mort');
    expect(explainRecommendation('author', 'Jane Austen')).toBe('Because you like Jane Austen');
    expect(explainRecommendation('genre', 'Classics')).toBe('Because you like Classics');
    expect(explainRecommendation('staff_pick', null)).toBe('Picked by our staff');
    expect(explainRecommendation('trending', null)).toBe('Trending on Reshelf');
  });

  it('has words for every reason', () => {
    for (const reason of RECOMMENDATION_REASONS) {
      expect(explainRecommendation(reason, 'X').length).toBeGreaterThan(5);
    }
  });
});

describe('seller analytics', () => {
  it('refuse a period that is not one', () => {
    const answer = {
      period: '1y',
      scope: 'seller',
      totals: {
        views: 0,
        wishlists: 0,
        offersReceived: 0,
        offersAccepted: 0,
        sales: 0,
        revenueNetMinor: 0,
        conversionPercent: null,
        averageDaysToSell: null,
      },
      points: [],
      listings: [],
    };
    expect(sellerAnalyticsSchema.safeParse(answer).success).toBe(false);
    expect(sellerAnalyticsSchema.safeParse({ ...answer, period: '12m' }).success).toBe(true);
  });
});
