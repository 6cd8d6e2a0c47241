import { useNavigation } from 'react-router-dom';

/** A thin bar along the top of the page while the next page's code or data loads. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <div
      aria-hidden="true"
      className="fixed inset-x-0 top-[var(--shell-top,0px)] z-50 h-0.5 overflow-hidden bg-brand/15"
    >
      <div className="h-full motion-safe:animate-nav-progress w-2/5 bg-brand" />
    </div>
  );
}
