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

  it('accepts the current code and one step either side, not two steps back, and tells which step matched', async () => {
    const { secret } = await service.enrol('ada@example.com');
    // A fixed moment in the middle of a step, so no boundary falls between making and checking a code.
    const now = 1_763_900_315_000;
    const step = Math.floor(now / 30_000);
    const at = (offsetSteps: number) => speakeasy.totp({ secret, encoding: 'base32', time: Math.floor(now / 1000) + offsetSteps * 30 });
    expect(service.verify(secret, at(0), now)).toBe(step);
    expect(service.verify(secret, ` ${at(0).slice(0, 3)} ${at(0).slice(3)} `, now)).toBe(step);
    // The step is what replay protection compares: the previous and next steps are told apart from now.
    if (at(-1) !== at(0)) expect(service.verify(secret, at(-1), now)).toBe(step - 1);
    if (at(1) !== at(0) && at(1) !== at(-1)) expect(service.verify(secret, at(1), now)).toBe(step + 1);
    const twoBack = at(-2);
    if (![at(-1), at(0), at(1)].includes(twoBack)) expect(service.verify(secret, twoBack, now)).toBeNull();
  });

  it('reads the clock when not given a time', async () => {
    const { secret } = await service.enrol('ada@example.com');
    const code = speakeasy.totp({ secret, encoding: 'base32' });
    expect(service.verify(secret, code)).toEqual(expect.any(Number));
  });

  it.each(['', '12345', '1234567', 'abcdef', '12345a'])('refuses the malformed code %p without throwing', async (code) => {
    const { secret } = await service.enrol('ada@example.com');
    expect(service.verify(secret, code)).toBeNull();
  });
});
