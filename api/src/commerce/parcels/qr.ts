/** The drop-off QR code as an SVG image (the carrier's drop-off code, `shipments.qr_code`). */
import { AppError } from '../../errors.ts';

export async function qrSvg(_payload: string): Promise<string> {
  throw new AppError('UNAVAILABLE', 'The QR code is not available yet: download the label instead.');
}
