import { SonnerToaster } from '../components/ui/sonner.tsx';
import { Toaster } from '../components/ui/toaster.tsx';

/** Both toast systems, loaded after the page is up (app/providers.tsx): not in the first load. */
export function Toasters() {
  return (
    <>
      <Toaster />
      <SonnerToaster />
    </>
  );
}
