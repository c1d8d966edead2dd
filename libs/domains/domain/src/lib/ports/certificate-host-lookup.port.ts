/** Whether a host is a verified custom domain: at once when the answer is known (a cached one), else a promise. */
export abstract class CertificateHostLookup {
  abstract isVerified(host: string): boolean | Promise<boolean>;
}
