/**
 * The EasyPost adapter (decision 0084): Royal Mail, Evri and InPost through one API.
 * Drop-off points come from the local directory (EasyPost has no point search).
 */
import { createDropOffDirectory, type DropOffDirectory } from './drop-off-directory.ts';
import { type CarrierProvider, CarrierUnavailableError } from './port.ts';

export const EASYPOST_NAME = 'easypost';

export interface EasyPostOptions {
  apiKey: string;
  webhookSecret: string;
  baseUrl: string;
  directory?: DropOffDirectory;
}

export function createEasyPostCarrier(options: EasyPostOptions): CarrierProvider {
  const directory = options.directory ?? createDropOffDirectory();
  return {
    name: EASYPOST_NAME,
    async dropOffPoints(postcode, band, limit) {
      return directory.nearest(postcode, band, limit);
    },
    async dropOffPoint(id) {
      return directory.byId(id);
    },
    async buyLabel() {
      // Replaced by the label purchase in the next commit (issue 37, carriers37 item 4).
      throw new CarrierUnavailableError('EasyPost label purchase is not built yet', false);
    },
    verifyWebhook() {
      throw new CarrierUnavailableError('EasyPost webhooks are not built yet', false);
    },
  };
}
