// What every context's HTTP face (its adapter-nest library) needs: the route declaration, access and
// answer helpers, request DTO decorators and checks, schema helpers. The platform that runs them (the
// global pipe, the exception filter, the guards, the OpenAPI assembly, the Fastify adapter) is the app's.
export * from './lib/access/access.decorators';
export * from './lib/route/route.decorator';
export * from './lib/route/responds.decorator';
export * from './lib/route/declared-routes';
export * from './lib/answers/envelope';
export * from './lib/answers/streamed-list';
export * from './lib/answers/error-answers';
export * from './lib/requests/request-dto.decorators';
export * from './lib/requests/field-checks';
export * from './lib/requests/field-errors';
export * from './lib/requests/documented-rules';
export * from './lib/requests/paging.request.dto';
export * from './lib/paging/cursors';
export * from './lib/schemas/schema';
export * from './lib/schemas/response-schemas';
export * from './lib/schemas/request-schema';
export * from './lib/mcp/mcp-tool.decorator';
export * from './lib/providers/provider-of';
export * from './lib/pages/html-page';
export * from './lib/answers/etag';
