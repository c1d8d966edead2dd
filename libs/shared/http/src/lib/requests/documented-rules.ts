import type { SchemaObject } from '@nestjs/swagger';
import { ValidateBy, ValidationOptions } from 'class-validator';
import { parseDateTime, parseUrl } from '@lnk/shared/kernel';

const SCHEMA = Symbol('lnk:rule-schema');

/** What a rule of our own writes into the OpenAPI document, carried as the rule's constraint. */
interface RuleSchema {
  [SCHEMA]: SchemaObject;
}

/**
 * A class-validator rule of our own that says what it enforces in the document: the OpenAPI build reads
 * `schema` from the rule itself (ruleSchemaOf), so the check and its documentation are one declaration.
 */
export function documentedRule(
  name: string,
  test: (value: unknown) => boolean,
  message: string,
  schema: SchemaObject,
  options?: ValidationOptions,
): PropertyDecorator {
  const constraint: RuleSchema = { [SCHEMA]: schema };
  return ValidateBy(
    { name, constraints: [constraint], validator: { validate: test, defaultMessage: () => `$property ${message}` } },
    options,
  );
}

/** The schema a rule made by documentedRule carries, from its constraints (class-validator's metadata). */
export function ruleSchemaOf(constraints: readonly unknown[] | undefined): SchemaObject | undefined {
  const first = constraints?.[0];
  return typeof first === 'object' && first !== null && SCHEMA in first ? (first as RuleSchema)[SCHEMA] : undefined;
}

/** A label of a host name (RFC 1123): 1 to 63 letters, digits and inner hyphens. */
export const HOST_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** A host name whose last label starts with a letter (the URL parser reads a number there as an IPv4 address), or an IPv4 address. */
const HOST = `(?:(?:${HOST_LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?|${OCTET}(?:\\.${OCTET}){3})`;

/**
 * An absolute URL of http or https (or https only) in the document's words: the scheme, a host, a port,
 * then anything. Every string it matches is one the URL parser reads with that host; the parser also
 * takes odd spellings (`https:host`, IPv6 hosts) the document does not name.
 */
export const urlPattern = (schemes: 'http or https' | 'https'): string =>
  `^[Hh][Tt][Tt][Pp]${schemes === 'https' ? '[Ss]' : '[Ss]?'}://${HOST}(?::[0-9]{1,4})?(?:[/?#]\\S*)?$`;
export const HTTP_URL_PATTERN = urlPattern('http or https');

/** An absolute http(s) URL (Stripe's `{CHECKOUT_SESSION_ID}` placeholder allowed, so not `format: uri`). */
export const IsHttpUrl = (options?: ValidationOptions): PropertyDecorator =>
  documentedRule(
    'isHttpUrl',
    (value) => {
      const url = typeof value === 'string' ? parseUrl(value) : null;
      return !!url && (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
    },
    'must be an absolute http(s) URL',
    { type: 'string', pattern: HTTP_URL_PATTERN },
    options,
  );

/** An ISO 8601 date-time with its offset, of a day that exists (2026-02-30 is refused, not read as March 2). */
export const IsDateTime = (options?: ValidationOptions): PropertyDecorator =>
  documentedRule(
    'isDateTime',
    (value) => typeof value === 'string' && parseDateTime(value) !== null,
    'must be an ISO 8601 date-time with its offset, e.g. 2030-01-31T12:00:00Z',
    { type: 'string', format: 'date-time' },
    options,
  );

/** Text with something besides white space (a name the domain trims): `\S` found anywhere. */
export const NOT_BLANK = '\\S';
