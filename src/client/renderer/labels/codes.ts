// Barcode and QR code pictures of a label, drawn by well-kept libraries (bwip-js for Code 128, qrcode for
// QR) as SVG text: crisp at any print size, and no canvas to wait for.
import { toSVG } from 'bwip-js/browser';
import QRCode from 'qrcode';

/** Code 128 of `value` as SVG (no human-readable text under it: the label prints the code itself). */
export function code128Svg(value: string): string {
  return toSVG({ bcid: 'code128', text: value, scale: 2, height: 10, includetext: false, paddingwidth: 0, paddingheight: 0 });
}

/** A QR code of `text` as SVG. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 0 });
}

/** The URL a label's QR code opens: /qrCodeLoad of this site with the signed token. */
export function qrUrl(token: string, origin = window.location.origin): string {
  return `${origin}/qrCodeLoad?t=${encodeURIComponent(token)}`;
}
