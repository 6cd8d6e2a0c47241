/**
 * Ids taken from the address (a listing, an order, a seller). The API's ids are UUIDs, and it
 * refuses anything else with a validation message meant for forms ("listingId: That is not a
 * listing id"). A page keyed by such an id asks the API only for one of the right shape; any
 * other names nothing, so the page shows the not-found page at once, as it does for an id the
 * API does not know.
 */
import { z } from 'zod';

const uuid = z.uuid();

export function isRouteId(value: string | null | undefined): value is string {
  return typeof value === 'string' && uuid.safeParse(value).success;
}
