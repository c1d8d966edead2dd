import { Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { SCOPE_DESCRIPTIONS } from '@lnk/identity/domain';
import { AppConfig, APP_CONFIG } from '@lnk/composition';
import {
  bodyMayBeOmitted,
  ignoresUnknownFields,
  named,
  nameOf,
  openApiPath,
  type PathParameter,
  type RegisteredRoute,
  requestSchema,
  type RouteResponse,
  routesOf,
} from '@lnk/shared/http';
import { SERVICE_LICENSE, SERVICE_VERSION } from '../version';
import { ERROR_ENVELOPE, SUCCESS_ENVELOPE } from './response-schemas';
import { documentRequestHeaders } from './request-headers';

export { openApiPath, type RegisteredRoute };

/** Every route of the running app's controllers, with what their decorators declare. */
export function registeredRoutes(app: NestFastifyApplication): RegisteredRoute[] {
  const controllers = [...app.get(ModulesContainer).values()].flatMap((module) =>
    [...module.controllers.values()].map((wrapper) => wrapper.metatype as Type),
  );
  return routesOf(controllers);
}

const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/**
 * A schema as the document writes it: a named schema (`named(...)`, schema.ts) anywhere inside it becomes
 * its $ref; `component` writes the named schema itself, for `components.schemas`. It looks into the
 * same places as `namedSchemas` below (items, properties, oneOf), so every $ref it writes has its component.
 */
function documented(schema: SchemaObject | ReferenceObject, component = false): SchemaObject | ReferenceObject {
  if ('$ref' in schema) return schema;
  const name = nameOf(schema);
  if (name && !component) return ref(name);
  const each = (schemas: (SchemaObject | ReferenceObject)[]) => schemas.map((s) => documented(s));
  return {
    ...schema,
    ...(schema.items ? { items: documented(schema.items) } : {}),
    ...(schema.properties
      ? { properties: Object.fromEntries(Object.entries(schema.properties).map(([key, s]) => [key, documented(s)])) }
      : {}),
    ...(schema.oneOf ? { oneOf: each(schema.oneOf) } : {}),
  };
}

/** The RFC 6749 error body (section 5.2) a form-encoded OAuth request is refused with. */
const OAUTH_ERROR: SchemaObject = named('OAuthError', {
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
});

const errorAnswer = (description: string): ResponseObject => ({
  description,
  content: { 'application/json': { schema: documented(ERROR_ENVELOPE) } },
});

/**
 * Every named schema the routes answer with (data, meta, form body, raw bodies), and every named schema
 * inside those, by component name, then the `shared` ones (the error bodies every operation refers to):
 * what `components.schemas` holds besides the request DTOs. Found by walking, not listed by hand, so a
 * schema named where its endpoint defines it is documented once a handler declares it. Two different
 * schemas under one name would make the name's $ref ambiguous: the build fails and says where each is used.
 */
export function namedSchemas(routes: readonly RegisteredRoute[], shared: readonly SchemaObject[] = []): Map<string, SchemaObject> {
  const found = new Map<string, { schema: SchemaObject; usedBy: string }>();
  const walked = new Set<SchemaObject>();
  const walk = (schema: SchemaObject | ReferenceObject | undefined, usedBy: string): void => {
    if (!schema || '$ref' in schema || walked.has(schema)) return;
    walked.add(schema);
    const name = nameOf(schema);
    if (name !== undefined) {
      const first = found.get(name);
      if (!first) found.set(name, { schema, usedBy });
      else if (first.schema !== schema)
        throw new Error(
          `Two different schemas are named '${name}' (one used by ${first.usedBy}, the ` +
            `other by ${usedBy}): a component name must be given to one schema only`,
        );
    }
    walk(schema.items, usedBy);
    for (const property of Object.values(schema.properties ?? {})) walk(property, usedBy);
    for (const option of schema.oneOf ?? []) walk(option, usedBy);
  };
  for (const route of routes) {
    const answer = route.response;
    if (!answer) continue;
    const usedBy = `${route.method} ${route.path}`;
    for (const schema of [answer.data, answer.meta, answer.form, ...Object.values(answer.raw ?? {})]) walk(schema ?? undefined, usedBy);
  }
  for (const schema of shared) walk(schema, 'every operation');
  return new Map([...found].map(([name, { schema }]) => [name, schema]));
}

/**
 * The success answer of a route: its envelope (its status in `status`, 302 for a redirect's), given a
 * component name by `name` so that generated clients name its type; a form-encoded OAuth request's RFC
 * body beside it (oneOf: the request's content type decides, which OpenAPI 3.0 cannot key an answer on).
 */
function successResponse(answer: RouteResponse, name: (schema: SchemaObject) => ReferenceObject): ResponseObject {
  if (answer.raw)
    return {
      description: 'OK',
      content: Object.fromEntries(Object.entries(answer.raw).map(([type, schema]) => [type, { schema: documented(schema) }])),
    };
  const status = answer.status ?? 200;
  const envelope = SUCCESS_ENVELOPE(answer.data && documented(answer.data), answer.meta && documented(answer.meta), status);
  if (status >= 300)
    return {
      description: 'Redirect (Location header)',
      ...(answer.data ? { content: { 'application/json': { schema: name(envelope) } } } : {}),
    };
  const json = name(envelope);
  const form = answer.form && documented(answer.form);
  const page: Record<string, { schema: SchemaObject }> = answer.page ? { 'text/html': { schema: { type: 'string' } } } : {};
  return {
    description: answer.page ? 'OK: the envelope, or an HTML page for a browser' : 'OK',
    content: { 'application/json': { schema: form ? { oneOf: [json, form] } : json }, ...page },
  };
}

/** An error answer of an OAuth endpoint: the envelope to a JSON request, the RFC 6749 body (section 5.2) to a form-encoded one. */
function withFormError(response: ResponseObject): ResponseObject {
  const json = response.content?.['application/json']?.schema;
  if (!json) return response;
  return {
    ...response,
    description: `${response.description}; to a form-encoded request, the RFC 6749 error body`,
    content: { ...response.content, 'application/json': { schema: { oneOf: [json, documented(OAUTH_ERROR)] } } },
  };
}

/** The path parameters most routes share, described once; any other is described by its route (@Route's params). */
const PATH_PARAMETERS: Record<string, PathParameter> = {
  id: {
    type: 'string',
    description: "The id of one of your resources: 24 hex characters (another account's, or none: 404).",
    example: '665f1c2e9b1e8a0012345678',
  },
};

function pathParameter(parameter: ParameterObject, route: RegisteredRoute): ParameterObject {
  const declared = route.params[parameter.name] ?? PATH_PARAMETERS[parameter.name];
  if (!declared)
    throw new Error(
      `The path parameter ${parameter.name} of ${route.method} ${route.path} is not described: give it in its @Route's params`,
    );
  const { description, example, ...schema } = declared;
  return { name: parameter.name, in: 'path', required: true, ...(description ? { description } : {}), example, schema };
}

/** A query DTO's fields, each a query parameter with its schema (its description and example beside it). */
function queryParameters(type: object): ParameterObject[] {
  const schema = requestSchema(type);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, example, ...rest } = property as SchemaObject;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(description ? { description } : {}),
      ...(example === undefined ? {} : { example }),
      schema: rest,
    };
  });
}

/** Where Swagger UI at /docs sends the browser back after the authorization page (swagger-ui-dist's own page). */
export const DOCS_OAUTH2_REDIRECT_PATH = '/docs/oauth2-redirect.html';

const FORM = 'application/x-www-form-urlencoded';

/**
 * The OpenAPI 3 document of the running app: paths from the controllers (@nestjs/swagger), each
 * operation's summary and description from its @ApiOperation, request bodies and query parameters
 * from the DTOs' class-validator rules (the very rules that validate, so required fields and lengths
 * cannot drift) with their documented examples, each route's scope (@RequireScope) as an OAuth 2.0
 * security requirement, and its success answer (@Responds) wrapped in the envelope.
 *
 * Server and OAuth URLs are relative (the path of PUBLIC_BASE_URL, normally `/`): a client resolves them
 * against the address it fetched the document from, so Swagger UI calls the origin it was opened on,
 * whatever host name reached the service (an absolute `http://localhost:<PORT>` made every call from
 * `127.0.0.1` or a LAN name cross-origin). No request header goes into the document, so a forged Host
 * cannot plant another authorization server in it.
 */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = app.get<AppConfig>(APP_CONFIG);
  const base = new URL(config.publicBaseUrl).pathname.replace(/\/+$/, '');
  const scopes = SCOPE_DESCRIPTIONS;
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('lnk API')
      .setDescription(
        'Short links on custom domains, their statistics, and the accounts, tokens and subscriptions ' +
          'around them. Every answer is an envelope {status, code, message, data, meta}; ' +
          'a refused request answers 400 VALIDATION_ERROR with `meta.errors`, one `{name, error}` per failing ' +
          'field. Bodies are JSON; the `/oauth/*` endpoints also take form-encoded bodies (RFC 6749). ' +
          'The same routes answer under `/v1`.',
      )
      // Swagger UI's version badge: the release running, not the API's path version (that is /v1).
      .setVersion(SERVICE_VERSION)
      .addServer(base || '/', 'This service, at the address this document was fetched from')
      .addServer(`${base}/v1`, 'The same routes under the version prefix')
      // Swagger UI's Authorize dialog lists the schemes in this order and opens on the first one's field: a
      // token to paste is the quickest way in; the OAuth flows follow, each with its list of scopes.
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          description:
            'An opaque token, not a JWT: a personal access token (`tkn_…`, from POST /user/tokens or `npm run cli -- ' +
            'token:create`) or an OAuth access token (`at_…`). The scope each operation needs is in its x-required-scope.',
        },
        'bearer',
      )
      .addOAuth2(
        {
          type: 'oauth2',
          description:
            'OAuth 2.0 with the scopes below. Password grant: a client id (`npm run cli -- ' +
            "client:create --name <name>`) with an account's e-mail and password. " +
            `Authorization code (with PKCE) from this page: the client must list this documentation's ` +
            `redirect page among its redirect URIs, e.g. \`npm run cli -- client:create --name "API docs" ` +
            `--public --redirect-uri <PUBLIC_BASE_URL>${DOCS_OAUTH2_REDIRECT_PATH}\`` +
            ', then Authorize with its client id. Open this page at PUBLIC_BASE_URL for that flow: the ' +
            'authorization page is served there, and it hands the code back only to a page of its own origin.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${base}/oauth/authorize`,
              tokenUrl: `${base}/oauth/token`,
              refreshUrl: `${base}/oauth/token`,
              scopes,
            },
            password: { tokenUrl: `${base}/oauth/token`, refreshUrl: `${base}/oauth/token`, scopes },
          },
        },
        'oauth2',
      )
      .build(),
  );
  // @nestjs/swagger writes bearerFormat: 'JWT' into every bearer scheme; these tokens are opaque.
  delete (document.components?.securitySchemes?.['bearer'] as { bearerFormat?: string } | undefined)?.bearerFormat;
  const routes = registeredRoutes(app);
  const components = namedSchemas(routes, [ERROR_ENVELOPE, OAUTH_ERROR]);
  const schemas: Record<string, SchemaObject | ReferenceObject> = {
    ...(document.components?.schemas ?? {}),
    ...Object.fromEntries([...components].map(([name, schema]) => [name, documented(schema, true)])),
  };
  const component = (name: string, schema: SchemaObject, usedBy: string): ReferenceObject => {
    if (schemas[name]) throw new Error(`The component name ${name} (of ${usedBy}) is taken: rename the operation or the schema`);
    schemas[name] = schema;
    return ref(name);
  };

  for (const route of routes) {
    const path = openApiPath(route.path);
    const operation = document.paths[path]?.[route.method.toLowerCase() as 'get'] as
      (OperationObject & Record<`x-${string}`, unknown>) | undefined;
    if (!operation) continue;
    const usedBy = `${route.method} ${route.path}`;
    if (route.body) {
      // A request DTO is a component under its class name: a response schema of that name would replace it.
      if (components.has(route.body.name))
        throw new Error(`The request body ${route.body.name} of ${usedBy} has the name of a response schema: rename one of them`);
      const schema = requestSchema(route.body);
      schemas[route.body.name] = schema;
      const media = { schema: ref(route.body.name), ...(schema.example === undefined ? {} : { example: schema.example }) };
      const body = operation.requestBody && 'content' in operation.requestBody ? operation.requestBody : { content: {} };
      // A DELETE /user/me may come without a body (@OmittableBody, read by the validation pipe).
      const required = !bodyMayBeOmitted(route.body);
      operation.requestBody = {
        ...body,
        required,
        content: { 'application/json': media, ...(route.acceptsForm ? { [FORM]: media } : {}) },
      };
    }
    const pathParameters = ((operation.parameters ?? []) as ParameterObject[])
      .filter((p) => p.in === 'path')
      .map((p) => pathParameter(p, route));
    operation.parameters = [...pathParameters, ...(route.query ? queryParameters(route.query) : [])];
    if (route.query && !ignoresUnknownFields(route.query)) {
      // OpenAPI 3.0 cannot close a list of query parameters: said in words, and for tools in an extension.
      operation['x-additional-query-parameters'] = false;
      operation.description = `${operation.description ?? ''} Query parameters other than these are refused (VALIDATION_ERROR).`.trim();
    }
    const scope = route.isPublic ? null : route.scope;
    operation.security = scope ? [{ oauth2: [scope] }, { bearer: [] }] : [];
    if (scope) operation['x-required-scope'] = scope;
    if (scope) operation.description = `Needs the \`${scope}\` scope.${operation.description ? ` ${operation.description}` : ''}`;

    // A route without @Responds fails the route walk's test; it is documented with an empty schema meanwhile.
    const answer: RouteResponse = route.response ?? { data: {} };
    const status = answer.status ?? 200;
    const answerName = `${operation.operationId?.replace(/^./, (c) => c.toUpperCase())}Answer`;
    const responses: Record<string, ResponseObject> = {
      [String(status)]: successResponse(answer, (schema) => component(answerName, schema, usedBy)),
    };
    if (status >= 300)
      operation.description = (
        `${operation.description ?? ''} Its success is a redirect (${status}, ` +
        'Location header) for the browser to follow, so it answers no 2xx.'
      ).trim();
    if (answer.redirect) responses['302'] = { description: `Redirect (Location header): ${answer.redirect}` };
    if (route.body || route.query || path.includes('{'))
      responses['400'] = errorAnswer('VALIDATION_ERROR (meta.errors names each field) or another client error');
    if (scope) {
      responses['401'] = errorAnswer('UNAUTHORIZED: no token, or one that is not valid');
      responses['403'] = errorAnswer(
        answer.reauthentication
          ? `FORBIDDEN: the token lacks the ${scope} scope; or REAUTHENTICATION_REQUIRED: the token does not come from a ` +
              'password or identity-provider sign-in in the last 10 minutes and the body has no currentPassword'
          : `FORBIDDEN: the token lacks the ${scope} scope`,
      );
    }
    if (path.includes('{') || route.body) responses['404'] = errorAnswer('NOT_FOUND: no such resource of the caller');
    if (route.body) responses['413'] = errorAnswer('PAYLOAD_TOO_LARGE: the body is over the limit');
    responses['429'] = errorAnswer('RATE_LIMITED: see Retry-After');
    responses['500'] = errorAnswer('INTERNAL_ERROR: a fault of the service (logged with the request id)');
    responses['503'] = errorAnswer('SERVICE_UNAVAILABLE: the database is unreachable');
    for (const [status, kind] of Object.entries(answer.errors ?? {})) {
      const page = { 'text/html': { schema: { type: 'string' } } };
      if (kind === 'html') responses[status] = { description: 'An HTML page saying what went wrong', content: page };
      else if (kind === 'html or json')
        responses[status] = {
          description: 'An HTML page, or the error envelope when the request itself is malformed',
          content: { ...page, 'application/json': { schema: documented(ERROR_ENVELOPE) } },
        };
      else responses[status] = errorAnswer('See the error code');
    }
    // A form-encoded request to an OAuth endpoint is refused with the RFC 6749 error body, whatever the status (OAuthProtocolFilter).
    if (route.acceptsForm && route.body)
      for (const [status, response] of Object.entries(responses)) if (Number(status) >= 400) responses[status] = withFormError(response);
    documentRequestHeaders(route, operation, responses, errorAnswer);
    operation.responses = responses;
  }
  document.components = { ...document.components, schemas };
  document.info.license = { name: SERVICE_LICENSE };
  return document;
}
