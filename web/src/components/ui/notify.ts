/**
 * The secondary toasts (spec sections 4 and 9), through Sonner: notify('Saved'),
 * notify.success / info / warning / error / loading, notify.promise, notify.dismiss(id).
 * Up to 3 are visible; each closes after 4000 ms, except loading toasts and those given
 * `duration: Infinity`. Sonner pauses the timer while the stack is expanded (hover or focus),
 * while a toast is being touched or swiped, and while the page is hidden; a swipe past 20 px
 * dismisses (Sonner patched, docs/decisions/0005-sonner-swipe-threshold.md); removal takes
 * 200 ms. Mounted by sonner.tsx.
 */
export { toast as notify } from 'sonner';
