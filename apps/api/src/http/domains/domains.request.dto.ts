import { IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

@JSONSchema({ example: { name: 'links.example.com' } })
export class AddDomainDto {
  @IsString() @MaxLength(300) name!: string;
}
