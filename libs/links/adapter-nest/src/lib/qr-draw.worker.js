// Draws one QR code on a piscina worker thread. Plain CommonJS, not TypeScript: the thread loads this
// file with Node's own loader, so it runs as it is both from the built app (the build copies it beside
// qr-renderer.js) and under Jest, which compiles TypeScript for the main thread only.
const qrcode = require('qrcode');

module.exports = async function drawQrCode({ text, size, format }) {
  const options = { errorCorrectionLevel: 'M', margin: 2, width: size };
  if (format === 'svg') return Buffer.from(await qrcode.toString(text, { ...options, type: 'svg' }));
  return qrcode.toBuffer(text, { ...options, type: 'png' });
};
