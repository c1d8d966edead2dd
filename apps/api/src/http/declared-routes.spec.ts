import { Controller, Get, Post } from '@nestjs/common';
import { API_CONTROLLERS } from '../app.module';
import { Public, RequireScope } from '../auth/access.decorators';
import { ok } from '../envelope/envelope';
import { Responds } from '../openapi/responds.decorator';
import { LinkSchema } from './links/links.schemas';
import { responseTable, routesOf, scopeTable, undeclaredRoutes } from './declared-routes';

@Controller('careless')
class CarelessController {
  @Get('open')
  @Responds(null)
  forgotAccess() {
    return ok(undefined, 'open to anyone?');
  }

  @Post('both')
  @Public()
  @RequireScope('links:read')
  @Responds(null)
  saysBoth() {
    return ok(undefined, 'open or scoped?');
  }

  @Get('quiet')
  @RequireScope('links:read')
  forgotAnswer() {
    return ok({ undocumented: true }, 'answers what?');
  }
}

describe('route declarations', () => {
  // Deny by default and a document without holes: every route of the app says who may call it and what it answers.
  it('has every route of the app either public or scoped (never both), with its answer declared', () => {
    expect(undeclaredRoutes(routesOf(API_CONTROLLERS))).toEqual([]);
  });

  // The check above can fail: a route missing a declaration is named with what it lacks.
  it('names a route without access declaration, with both, or without its answer', () => {
    expect(undeclaredRoutes(routesOf([CarelessController]))).toEqual([
      'GET /careless/open: neither @Public() nor @RequireScope',
      "POST /careless/both: both @Public() and @RequireScope('links:read')",
      'GET /careless/quiet: no @Responds or @RespondsRaw',
    ]);
  });

  // The tables the e2e suites walk come from the handlers, keyed as Nest and OpenAPI spell the paths.
  it('derives the scope and answer tables from the handlers', () => {
    const routes = routesOf(API_CONTROLLERS);
    expect(scopeTable(routes)).toMatchObject({ 'GET /user/link/:id': 'links:read', 'DELETE /user/tokens/:id': 'tokens:delete' });
    expect(scopeTable(routes)).not.toHaveProperty(['GET /health']);
    expect(responseTable(routes)['GET /user/link/{id}']?.data).toBe(LinkSchema);
  });
});
