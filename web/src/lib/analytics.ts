/**
 * Consent-gated analytics. Until the visitor accepts cookies, nothing is sent anywhere: events
 * wait in a short in-memory queue (never stored). Accepting flushes the queue; declining empties
 * it and drops every later event.
 *
 * No analytics provider is chosen yet, so accepted events are published in the page as a
 * `reshelf:analytics` window event; a provider (or a first-party endpoint) subscribes there.
 * Nothing here touches storage, cookies or the network.
 */
export type AnalyticsConsent = 'accepted' | 'declined';

export type AnalyticsProperties = Record<string, string | number | boolean>;

export interface AnalyticsEvent {
  name: string;
  properties: AnalyticsProperties;
  /** ISO time the event happened (not when it was sent). */
  at: string;
}

export interface Analytics {
  track(name: string, properties?: AnalyticsProperties): void;
  /** The visitor's choice, or null while they have not made one. */
  setConsent(consent: AnalyticsConsent | null): void;
  /** How many events are waiting for consent. */
  pending(): number;
}

export interface AnalyticsOptions {
  send: (event: AnalyticsEvent) => void;
  /** Oldest events are dropped beyond this many while consent is pending. */
  maxPending?: number;
  now?: () => Date;
}

export function createAnalytics({
  send,
  maxPending = 50,
  now = () => new Date(),
}: AnalyticsOptions): Analytics {
  let consent: AnalyticsConsent | null = null;
  let queue: AnalyticsEvent[] = [];

  return {
    track(name, properties = {}) {
      if (consent === 'declined') return;
      const event: AnalyticsEvent = { name, properties, at: now().toISOString() };
      if (consent === 'accepted') {
        send(event);
        return;
      }
      queue.push(event);
      if (queue.length > maxPending) queue = queue.slice(-maxPending);
    },
    setConsent(next) {
      consent = next;
      if (next === null) return;
      const waiting = queue;
      queue = [];
      if (next === 'accepted') for (const event of waiting) send(event);
    },
    pending() {
      return queue.length;
    },
  };
}

export const ANALYTICS_EVENT = 'reshelf:analytics';

/** The app's one analytics instance. */
export const analytics = createAnalytics({
  send(event) {
    window.dispatchEvent(new CustomEvent<AnalyticsEvent>(ANALYTICS_EVENT, { detail: event }));
  },
});

export function track(name: string, properties?: AnalyticsProperties): void {
  analytics.track(name, properties);
}
