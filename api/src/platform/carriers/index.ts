/**
 * The carrier port's adapters (issue 37, decisions 0083 and 0084): the embedded test carrier
 * and EasyPost. The rest of the app sees `CarrierProvider` (port.ts) and these entry points.
 */
import type { AppConfig } from '../../config.ts';
import type { Secrets } from '../../secrets.ts';
import { createEasyPostCarrier } from './easypost.ts';
import type { CarrierProvider } from './port.ts';
import { createTestCarrier } from './test-carrier.ts';

export {
  createDropOffDirectory,
  type DropOffDirectory,
  LOCKER_LARGEST_BAND,
  takesBand,
} from './drop-off-directory.ts';
export { createEasyPostCarrier, EASYPOST_NAME, EASYPOST_SIGNATURE_HEADER } from './easypost.ts';
export * from './port.ts';
export {
  CARRIER_WEBHOOK_PATH,
  registerTestCarrierRoutes,
  SCAN_BUTTONS,
  TEST_CARRIER_PAGE,
} from './test-carrier.routes.ts';
export {
  createTestCarrier,
  TEST_CARRIER_NAME,
  TEST_CARRIER_OUTAGE_POSTCODE,
  TEST_CARRIER_SIGNATURE_HEADER,
  type TestCarrier,
} from './test-carrier.ts';

/** The carrier CARRIERS names (config.ts): the test carrier outside production, or EasyPost. */
export function createCarrierProvider(config: AppConfig, secrets: Secrets): CarrierProvider {
  const carriers = config.carriers;
  if (carriers.provider === 'easypost') {
    return createEasyPostCarrier({
      apiKey: carriers.apiKey,
      webhookSecret: carriers.webhookSecret,
      baseUrl: carriers.baseUrl,
    });
  }
  return createTestCarrier({ secrets, siteOrigin: config.siteOrigin, failLabels: carriers.failLabels });
}
