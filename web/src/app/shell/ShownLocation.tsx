import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Marks the document with the address the page on screen was rendered for
 * (`<html data-shown-path>`). The router changes the address bar first and renders the new page
 * in a transition a moment later, so the browser tests, once they have seen the address change,
 * wait for this too before they read the page (tests/support/browser.ts). It costs one attribute
 * write per navigation, and so is in every build, which keeps the tests' wait the same on all.
 */
export function ShownLocation(): null {
  const { pathname, search } = useLocation();
  useLayoutEffect(() => {
    document.documentElement.dataset.shownPath = pathname + search;
  }, [pathname, search]);
  return null;
}
