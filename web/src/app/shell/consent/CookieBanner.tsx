import { COOKIE_BANNER } from '@reshelf/contracts';
import { Cookie, X } from 'lucide-react';
import { type FocusEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { type CookieConsent, readConsent, saveConsent, subscribeConsent } from './consent.ts';

/**
 * The banner's life (spec section 4):
 *   waiting  not in the page; 2000 ms after load it enters, unless a choice is already stored
 *   entering in the page, still off-screen; 100 ms later it slides in
 *   open     visible until the visitor chooses
 *   leaving  sliding away; removed 300 ms later
 *   gone     never shown again once a choice is stored
 */
export type CookieBannerPhase = 'waiting' | 'entering' | 'open' | 'leaving' | 'gone';

export function CookieBanner() {
  const [phase, setPhase] = useState<CookieBannerPhase>('waiting');
  const sectionRef = useRef<HTMLElement>(null);
  /** Where keyboard focus was before it entered the banner, to give it back afterwards. */
  const focusOriginRef = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (readConsent() !== null) {
      setPhase('gone');
      return;
    }
    const timer = window.setTimeout(() => setPhase('entering'), COOKIE_BANNER.delayMs);
    return () => window.clearTimeout(timer);
  }, []);

  useEffect(() => {
    const next = phase === 'entering' ? 'open' : phase === 'leaving' ? 'gone' : null;
    if (!next) return;
    const delay = phase === 'entering' ? COOKIE_BANNER.slideInMs : COOKIE_BANNER.removalMs;
    const timer = window.setTimeout(() => setPhase(next), delay);
    return () => window.clearTimeout(timer);
  }, [phase]);

  // A choice made here or in another tab sends the banner away (or keeps it from coming).
  useEffect(
    () =>
      subscribeConsent((consent) => {
        if (consent === null) return;
        setPhase((current) =>
          current === 'waiting' ? 'gone' : current === 'entering' || current === 'open' ? 'leaving' : current,
        );
      }),
    [],
  );

  if (phase === 'waiting' || phase === 'gone') return null;

  function choose(consent: CookieConsent) {
    const section = sectionRef.current;
    if (section?.contains(document.activeElement)) {
      const origin = focusOriginRef.current;
      const target = origin?.isConnected ? origin : document.getElementById('main');
      target?.focus({ preventScroll: true });
    }
    saveConsent(consent);
  }

  function rememberFocusOrigin(event: FocusEvent<HTMLElement>) {
    const from = event.relatedTarget;
    if (from instanceof HTMLElement && !event.currentTarget.contains(from)) focusOriginRef.current = from;
  }

  return (
    <section
      ref={sectionRef}
      data-testid="cookie-banner"
      data-state={phase}
      aria-labelledby="cookie-banner-title"
      aria-describedby="cookie-banner-text"
      inert={phase === 'leaving'}
      onFocus={rememberFocusOrigin}
      style={{ transitionDuration: `${COOKIE_BANNER.removalMs}ms` }}
      className="fixed inset-x-0 bottom-0 z-50 translate-y-[calc(100%+2rem)] opacity-0 transition-[translate,opacity] ease-out data-[state=open]:translate-y-0 data-[state=open]:opacity-100 motion-reduce:transition-none md:inset-x-auto md:right-6 md:bottom-[calc(1.5rem+var(--shell-bottom,0px))] md:w-full md:max-w-md print:hidden"
    >
      <div className="border-t border-line bg-paper px-4 pt-4 pb-[calc(1rem+var(--shell-bottom,0px))] shadow-[0_-8px_30px_-12px_rgb(34_28_24/0.25)] sm:px-6 md:rounded-2xl md:border md:p-5 md:shadow-card-hover">
        <div className="flex items-start gap-3">
          <span className="mt-0.5 grid size-9 shrink-0 place-items-center rounded-full bg-accent/25 text-ink">
            <Cookie aria-hidden="true" className="size-5" />
          </span>
          <div className="min-w-0 flex-1">
            <h2 id="cookie-banner-title" className="text-lg font-semibold">
              Cookie Preferences
            </h2>
            <p id="cookie-banner-text" className="mt-1 text-sm leading-relaxed text-ink-soft">
              We use cookies to enhance your browsing experience, provide personalised content and analyse our
              traffic. By clicking “Accept All”, you consent to our use of cookies.
            </p>
            <Link
              to="/pages/cookie-policy"
              className="mt-2 inline-block rounded text-sm font-semibold text-brand underline underline-offset-4 hover:text-brand-hover"
            >
              Learn more about our cookie policy
            </Link>
          </div>
          <Button
            variant="ghost"
            size="icon"
            aria-label="Decline and close"
            title="Decline and close"
            className="-mt-1.5 -mr-2 size-9 text-ink-muted"
            onClick={() => choose(COOKIE_BANNER.values.declined)}
          >
            <X aria-hidden="true" />
          </Button>
        </div>
        <div className="mt-4 grid grid-cols-2 gap-3 md:flex md:justify-start">
          <Button variant="brand" onClick={() => choose(COOKIE_BANNER.values.accepted)}>
            Accept All
          </Button>
          <Button variant="outline" onClick={() => choose(COOKIE_BANNER.values.declined)}>
            Decline
          </Button>
        </div>
      </div>
    </section>
  );
}
