/** The drop-off QR code as an SVG image (the carrier's drop-off code, `shipments.qr_code`). */
import bwipjs from 'bwip-js/node';

export function qrSvg(payload: string): string {
  return bwipjs.toSVG({ bcid: 'qrcode', text: payload, scale: 4 });
}
