import speakeasy from 'speakeasy';
import { SpeakeasyTotpService } from './speakeasy-totp.service';

describe('SpeakeasyTotpService', () => {
  const service = new SpeakeasyTotpService('lnk');

  it('enrols with a base32 secret, an otpauth URI naming the service and the account, and a PNG QR code', async () => {
    const enrolment = await service.enrol('ada@example.com');
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(enrolment.otpauthUrl);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/lnk:ada@example.com');
    expect(uri.searchParams.get('issuer')).toBe('lnk');
    expect(uri.searchParams.get('secret')).toBe(enrolment.secret);
    expect(enrolment.qrCodeDataUri.startsWith('data:image/png;base64,')).toBe(true);
    const png = Buffer.from(enrolment.qrCodeDataUri.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('accepts the current code and one step either side, not two steps back', async () => {
    const { secret } = await service.enrol('ada@example.com');
    const at = (offsetSteps: number) => speakeasy.totp({ secret, encoding: 'base32', time: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
    expect(service.verify(secret, at(0))).toBe(true);
    expect(service.verify(secret, ` ${at(0).slice(0, 3)} ${at(0).slice(3)} `)).toBe(true);
    expect(service.verify(secret, at(-1))).toBe(true);
    const twoBack = at(-2);
    if (![at(-1), at(0), at(1)].includes(twoBack)) expect(service.verify(secret, twoBack)).toBe(false);
  });

  it.each(['', '12345', '1234567', 'abcdef', '12345a'])('refuses the malformed code %p without throwing', async (code) => {
    const { secret } = await service.enrol('ada@example.com');
    expect(service.verify(secret, code)).toBe(false);
  });
});
