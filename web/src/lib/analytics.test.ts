import { describe, expect, it } from 'vitest';
import { type AnalyticsEvent, createAnalytics } from './analytics.ts';

function setup(maxPending?: number) {
  const sent: AnalyticsEvent[] = [];
  const analytics = createAnalytics({
    send: (event) => sent.push(event),
    now: () => new Date('2026-11-21T10:00:00Z'),
    ...(maxPending ? { maxPending } : {}),
  });
  return { analytics, sent };
}

describe('consent-gated analytics', () => {
  it('sends nothing before the visitor chooses, and holds the events', () => {
    const { analytics, sent } = setup();
    analytics.track('page_view', { path: '/' });
    analytics.track('page_view', { path: '/listings' });
    expect(sent).toEqual([]);
    expect(analytics.pending()).toBe(2);
  });

  it('sends the held events, in order, once cookies are accepted, and later events at once', () => {
    const { analytics, sent } = setup();
    analytics.track('page_view', { path: '/' });
    analytics.track('page_view', { path: '/listings' });
    analytics.setConsent('accepted');
    expect(sent.map((event) => event.properties.path)).toEqual(['/', '/listings']);
    expect(sent[0]).toEqual({ name: 'page_view', properties: { path: '/' }, at: '2026-11-21T10:00:00.000Z' });
    analytics.track('search', { query: 'dickens' });
    expect(sent).toHaveLength(3);
    expect(analytics.pending()).toBe(0);
  });

  it('drops the held events and every later one when cookies are declined', () => {
    const { analytics, sent } = setup();
    analytics.track('page_view', { path: '/' });
    analytics.setConsent('declined');
    analytics.track('page_view', { path: '/listings' });
    expect(sent).toEqual([]);
    expect(analytics.pending()).toBe(0);
  });

  it('sends nothing when a stored refusal is applied at start', () => {
    const { analytics, sent } = setup();
    analytics.setConsent('declined');
    analytics.track('page_view', { path: '/' });
    analytics.setConsent(null);
    analytics.track('page_view', { path: '/' });
    expect(sent).toEqual([]);
  });

  it('holds only the newest events while waiting', () => {
    const { analytics, sent } = setup(2);
    for (const path of ['/a', '/b', '/c']) analytics.track('page_view', { path });
    analytics.setConsent('accepted');
    expect(sent.map((event) => event.properties.path)).toEqual(['/b', '/c']);
  });
});
