import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { certificateHostOf, MAX_DOMAIN_NAME_LENGTH, normalizeDomainName } from '@lnk/domains/domain';
import { Checked, HOST_LABEL } from '@lnk/shared/http';

/**
 * normalizeDomainName's rule in the document: two or more labels of 1 to 63 letters, digits and inner
 * hyphens, the last one not a number. (An internationalised name is also taken, and stored in punycode.)
 */
const HOST_NAME = {
  pattern: `^(?:${HOST_LABEL}\\.)+${HOST_LABEL}\\.?$`,
  not: { pattern: '(?:^|\\.)[0-9]+\\.?$' },
  maxLength: MAX_DOMAIN_NAME_LENGTH,
};
/** certificateHostOf's rule in the document: HOST_NAME's, a single label (localhost) taken too. */
const CERTIFICATE_HOST = { ...HOST_NAME, pattern: `^(?:${HOST_LABEL}\\.)*${HOST_LABEL}\\.?$` };

@JSONSchema({ example: { name: 'links.example.com' } })
export class AddDomainDto {
  @JSONSchema({
    description: 'A host name of yours, like links.example.com: not an address, no scheme, port or path, not a domain of this service.',
  })
  // The pipe checks the form only: the service's own domains come from its configuration, which the use case checks.
  @IsString()
  @MaxLength(300)
  @Checked((value) => normalizeDomainName(value, []), HOST_NAME)
  name!: string;
}

/** The host a TLS proxy asks about; what a host name may be is the domain's rule. */
export class TlsAskQueryDto {
  @JSONSchema({ description: 'the server name of the TLS handshake', example: 'links.example.com' })
  @IsString()
  @MaxLength(300)
  @Checked((value) => certificateHostOf(value), CERTIFICATE_HOST)
  domain!: string;
}
