import { Controller, Get, Post } from '@nestjs/common';
import { Public, RequireScope } from '../access/access.decorators';
import { ok } from '../answers/envelope';
import { object, string } from '../schemas/schema';
import { Responds } from './responds.decorator';
import { Route } from './route.decorator';
import { responseTable, routesOf, scopeTable, undeclaredRoutes } from './declared-routes';

const SCOPES = ['notes:read', 'notes:write'];
const NoteSchema = object({ text: string });

@Controller('careless')
class CarelessController {
  @Get('open')
  @Responds(null)
  forgotAccess() {
    return ok(undefined, 'open to anyone?');
  }

  @Post('both')
  @Public()
  @RequireScope('notes:read')
  @Responds(null)
  saysBoth() {
    return ok(undefined, 'open or scoped?');
  }

  @Get('quiet')
  @RequireScope('notes:read')
  forgotAnswer() {
    return ok({ undocumented: true }, 'answers what?');
  }

  @Get('misspelt')
  @RequireScope('note:read')
  @Responds(null)
  misspeltScope() {
    return ok(undefined, 'open to no token at all');
  }
}

@Controller('notes')
class NotesController {
  @Route('GET', ':id', { operationId: 'getNote', scope: 'notes:read', answers: NoteSchema, summary: 'A note', description: 'One note.' })
  note() {
    return ok({ text: 'hello' });
  }

  @Route('GET', '', { operationId: 'getHome', answers: null, summary: 'Home', description: 'Open to all.' })
  @Public()
  home() {
    return ok(undefined, 'hello');
  }
}

describe('route declarations', () => {
  it('finds nothing wrong with routes declared by @Route', () => {
    expect(undeclaredRoutes(routesOf([NotesController]), SCOPES)).toEqual([]);
  });

  // The walk can fail: a route missing a declaration, or scoped by a scope no token carries (a typo would
  // refuse every caller: the scope is a string here, this library names no context), is named with what is wrong.
  it('names a route without access declaration, with both, without its answer, or with a scope no token carries', () => {
    expect(undeclaredRoutes(routesOf([CarelessController]), SCOPES)).toEqual([
      'GET /careless/open: neither @Public() nor @RequireScope',
      "POST /careless/both: both @Public() and @RequireScope('notes:read')",
      'GET /careless/quiet: no @Responds or @RespondsRaw',
      "GET /careless/misspelt: @RequireScope('note:read'), a scope no token carries",
    ]);
  });

  it('derives the scope and answer tables from the handlers, keyed as Nest and OpenAPI spell the paths', () => {
    const routes = routesOf([NotesController]);
    expect(scopeTable(routes)).toEqual({ 'GET /notes/:id': 'notes:read' });
    expect(responseTable(routes)['GET /notes/{id}']?.data).toBe(NoteSchema);
  });
});
