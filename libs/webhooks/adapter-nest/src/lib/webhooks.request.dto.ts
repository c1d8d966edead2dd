import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsString, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  checkWebhookLinkIds,
  checkWebhookUrl,
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_LINK_IDS,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
} from '@lnk/webhooks/domain';
import { Checked, Nullable, Omittable, urlPattern } from '@lnk/shared/http';

/**
 * The webhooks domain's rules of a destination and a link filter, with what the document says of them.
 * The pipe checks the URL's form as a development set-up allows it (http too); whether https is required,
 * and where the host points, are the use case's (configuration and DNS).
 */
const DESTINATION = Checked((value) => checkWebhookUrl(value, true), { format: 'uri', pattern: urlPattern('https') });
const LINK_FILTER = Checked(checkWebhookLinkIds, { minItems: 1 });

const URL_TEXT =
  'Where events are POSTed: an https URL whose host resolves to public addresses only (checked now and again at every connection).';
const EVENTS_TEXT = `The events to send: any of ${WEBHOOK_EVENT_TYPES.join(', ')}.`;
const LINKS_TEXT = `Only events of these links of yours (at most ${MAX_WEBHOOK_LINK_IDS}); null or left out: every link.`;

@JSONSchema({
  example: {
    url: 'https://crm.example.com/hooks/lnk',
    events: ['link.clicked'],
    linkIds: ['6650a1f2c3d4e5f6a7b8c9d0'],
    description: 'Campaign clicks to the CRM',
  },
})
export class CreateWebhookDto {
  @JSONSchema({ description: URL_TEXT })
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  @DESTINATION
  url!: string;
  @JSONSchema({ description: EVENTS_TEXT })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn([...WEBHOOK_EVENT_TYPES], { each: true })
  events!: string[];
  @JSONSchema({ description: LINKS_TEXT })
  @Nullable()
  @IsArray()
  @ArrayMaxSize(MAX_WEBHOOK_LINK_IDS)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  @LINK_FILTER
  linkIds?: string[] | null;
  @Omittable() @IsString() @MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH) description?: string;
}

@JSONSchema({ example: { isActive: true } })
export class UpdateWebhookDto {
  @JSONSchema({ description: URL_TEXT })
  @Omittable()
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  @DESTINATION
  url?: string;
  @JSONSchema({ description: EVENTS_TEXT })
  @Omittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn([...WEBHOOK_EVENT_TYPES], { each: true })
  events?: string[];
  @JSONSchema({ description: LINKS_TEXT })
  @Nullable()
  @IsArray()
  @ArrayMaxSize(MAX_WEBHOOK_LINK_IDS)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  @LINK_FILTER
  linkIds?: string[] | null;
  @Omittable() @IsString() @MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH) description?: string;
  @JSONSchema({
    description: 'false: no events are sent (those pending wait); true: on again, and a failure run that turned it off is forgotten.',
  })
  @Omittable()
  @IsBoolean()
  isActive?: boolean;
}
