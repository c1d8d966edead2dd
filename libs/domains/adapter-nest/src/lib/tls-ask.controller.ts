import { Controller, Query } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { AllowCertificateUseCase } from '@lnk/domains/domain';
import { ok, Public, Route } from '@lnk/shared/http';
import { TlsAskQueryDto } from './domains.request.dto';
import { CertificateHostSchema } from './domains.schemas';

/**
 * The question a TLS-terminating proxy asks before it obtains a certificate for a host (Caddy's on-demand
 * `ask`; the answer's status is all it reads). Public: the proxy has no token, and which names are verified
 * custom domains is no secret (each is in DNS, and its certificate in the CT logs). Not counted against
 * the per-address public budget: every ask comes from the proxy's one address, so that budget would
 * refuse a proxy's legitimate burst (its restart, many new domains); the use case bounds the work instead.
 */
@Controller('tls')
@Public()
@SkipThrottle()
export class TlsAskController {
  constructor(private readonly certificates: AllowCertificateUseCase) {}

  @Route('GET', 'ask', {
    operationId: 'getCertificatePermission',
    answers: CertificateHostSchema,
    errors: { 404: 'json' },
    summary: 'May a TLS proxy obtain a certificate for this host',
    description:
      "For a TLS-terminating proxy (Caddy's on_demand_tls ask): 200 for the service's own hosts (PUBLIC_BASE_URL's, " +
      "SHORT_BASE_URL's) and verified custom domains, 404 NOT_FOUND for any other host, 400 for an address or a malformed " +
      'name, 429 while too many unknown names are being looked up at once.',
  })
  async ask(@Query() query: TlsAskQueryDto) {
    return ok({ domain: await this.certificates.execute(query.domain) }, 'A certificate may be obtained for this host');
  }
}
