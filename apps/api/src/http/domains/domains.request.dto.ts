import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { MAX_DOMAIN_NAME_LENGTH, normalizeDomainName } from '@lnk/domains/domain';
import { HOST_LABEL } from '../../envelope/documented-rules';
import { Checked } from '../../envelope/field-checks';

/**
 * normalizeDomainName's rule in the document: two or more labels of 1 to 63 letters, digits and inner
 * hyphens, the last one not a number. (An internationalised name is also taken, and stored in punycode.)
 */
const HOST_NAME = { pattern: `^(?:${HOST_LABEL}\\.)+${HOST_LABEL}\\.?$`, not: { pattern: '(?:^|\\.)[0-9]+\\.?$' }, maxLength: MAX_DOMAIN_NAME_LENGTH };

@JSONSchema({ example: { name: 'links.example.com' } })
export class AddDomainDto {
  @JSONSchema({ description: 'A host name of yours, like links.example.com: not an address, no scheme, port or path, not a domain of this service.' })
  // The pipe checks the form only: the service's own domains come from its configuration, which the use case checks.
  @IsString() @MaxLength(300) @Checked((value) => normalizeDomainName(value, []), HOST_NAME) name!: string;
}
