import speakeasy from 'speakeasy';
import { toDataURL } from 'qrcode';
import { TotpEnrolment, TotpService } from '@lnk/identity/domain';

/** RFC 6238 codes of 6 digits every 30 s, one step of drift allowed either side. */
export class SpeakeasyTotpService extends TotpService {
  constructor(private readonly issuer: string) {
    super();
  }

  async enrol(accountName: string): Promise<TotpEnrolment> {
    const secret = speakeasy.generateSecret({ length: 20 }).base32;
    const otpauthUrl = speakeasy.otpauthURL({ secret, encoding: 'base32', label: `${this.issuer}:${accountName}`, issuer: this.issuer });
    return { secret, otpauthUrl, qrCodeDataUri: await toDataURL(otpauthUrl) };
  }

  verify(secret: string, code: string): boolean {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return false;
    try {
      return speakeasy.totp.verify({ secret, encoding: 'base32', token, window: 1 });
    } catch {
      return false;
    }
  }
}
