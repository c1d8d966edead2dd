import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

@JSONSchema({ example: { name: 'links.example.com' } })
export class AddDomainDto {
  @IsString() @MaxLength(300) name!: string;
}

/** The host a TLS proxy asks about; what a host name may be is the domain's rule. */
export class TlsAskQueryDto {
  @JSONSchema({ description: 'the server name of the TLS handshake', example: 'links.example.com' })
  @IsString() @MaxLength(300) domain!: string;
}
