import speakeasy from 'speakeasy';
import { toDataURL } from 'qrcode';
import { TotpEnrolment, TotpService } from '@lnk/identity/domain';

const STEP_SECONDS = 30;

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

  /** The matched step: the step of "now" plus the drift the code was found at. */
  verify(secret: string, code: string, nowMs = Date.now()): number | null {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return null;
    // One reading of the clock for both the check and the step, so a step boundary between them cannot shift it.
    const counter = Math.floor(nowMs / 1000 / STEP_SECONDS);
    try {
      const match = speakeasy.totp.verifyDelta({ secret, encoding: 'base32', token, window: 1, counter });
      return match ? counter + match.delta : null;
    } catch {
      return null;
    }
  }
}
