import { Body, Controller, Get, Post, Type } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { OpenAPIObject } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { id, integer, list, named, nameOf, object, ok, RequireScope, Responds, string } from '@lnk/shared/http';
import { type AppConfig, APP_CONFIG } from '@lnk/composition';
import { buildOpenApiDocument } from './openapi';

// An endpoint written the way a new one is: its schemas where it is defined, named there, nothing listed elsewhere.
const AuthorSchema = named('Author', object({ id, name: string }));
const ReportSchema = named('Report', object({ id, title: string, author: AuthorSchema }));
const ReportCountSchema = named('ReportCount', object({ total: integer }));

@Controller('reports')
class ReportsController {
  @Get(':id')
  @RequireScope('links:read')
  @Responds(ReportSchema)
  one() {
    return ok({ id: 'r1', title: 'Q1', author: { id: 'a1', name: 'Ann' } });
  }

  @Get()
  @RequireScope('links:read')
  @Responds(list(ReportSchema), { meta: ReportCountSchema })
  all() {
    return ok([], 'Reports', { total: 0 });
  }
}

@Controller('things')
class ThingsController {
  @Get()
  @RequireScope('links:read')
  @Responds(named('Thing', object({ a: string })))
  thing() {
    return ok({ a: 'a' });
  }
}

@Controller('other-things')
class OtherThingsController {
  @Get()
  @RequireScope('links:read')
  @Responds(named('Thing', object({ b: string })))
  thing() {
    return ok({ b: 'b' });
  }
}

/** A request body whose class name is the component name of ReportSchema. */
class Report {
  @IsString() title!: string;
}

@Controller('report-drafts')
class ReportDraftsController {
  @Post()
  @RequireScope('links:write')
  @Responds(null)
  draft(@Body() _body: Report) {
    return ok(undefined);
  }
}

/** The document of an app made of these controllers only. */
async function documentOf(...controllers: Type[]): Promise<OpenAPIObject> {
  const config: Pick<AppConfig, 'publicBaseUrl'> = { publicBaseUrl: 'http://localhost:3000' };
  const moduleRef = await Test.createTestingModule({ controllers, providers: [{ provide: APP_CONFIG, useValue: config }] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  await app.init();
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}

describe('OpenAPI components from named schemas', () => {
  // The bar of issue 14: an endpoint's folder alone documents its answer; no table of names to edit.
  it("documents a new controller's named schemas (data, meta, and one inside another) as components, each used by $ref", async () => {
    const document = await documentOf(ReportsController);
    const schemas = document.components?.schemas ?? {};
    expect(schemas['Report']).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { id, title: string, author: { $ref: '#/components/schemas/Author' } },
      required: ['id', 'title', 'author'],
    });
    expect(schemas['Author']).toEqual(AuthorSchema);
    expect(schemas['ReportCount']).toEqual(ReportCountSchema);
    // Each answer is a component of its own (named for its operation), so a generated client names its type.
    const envelopeOf = (path: string) => {
      const answer = (document.paths[path]?.get?.responses['200'] as { content: Record<string, { schema: { $ref: string } }> }).content[
        'application/json'
      ]?.schema.$ref;
      expect(answer).toMatch(/^#\/components\/schemas\/\w+Answer$/);
      return (schemas[answer.split('/').pop() as string] as { properties: Record<string, unknown> }).properties;
    };
    expect(envelopeOf('/reports/{id}')?.['data']).toEqual({ $ref: '#/components/schemas/Report' });
    expect(envelopeOf('/reports')).toMatchObject({
      data: { type: 'array', items: { $ref: '#/components/schemas/Report' } },
      meta: { $ref: '#/components/schemas/ReportCount' },
    });
    // The error bodies every operation refers to are components too.
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['ErrorEnvelope', 'OAuthError']));
  });

  // One name, one schema: otherwise a $ref would stand for whichever was found first.
  it('fails the build when two different schemas have one name, naming where each is used', async () => {
    await expect(documentOf(ThingsController, OtherThingsController)).rejects.toThrow(
      "Two different schemas are named 'Thing' (one used by GET /things, the other by GET /other-things)",
    );
  });

  // A request DTO is a component under its class name; a response schema of that name would silently replace it.
  it('fails the build when a request body has the name of a response schema', async () => {
    await expect(documentOf(ReportDraftsController)).resolves.toMatchObject({
      components: { schemas: { Report: { required: ['title'] } } },
    });
    await expect(documentOf(ReportsController, ReportDraftsController)).rejects.toThrow(
      'The request body Report of POST /report-drafts has the name of a response schema',
    );
  });
});

describe('named', () => {
  // The name stays off the schema: the document serialises a named schema exactly as before it was named.
  it('keeps the name off the serialised schema', () => {
    const schema = object({ a: string });
    const before = JSON.stringify(schema);
    expect(JSON.stringify(named('A', schema))).toBe(before);
    expect(nameOf(schema)).toBe('A');
    expect(nameOf({ ...schema })).toBeUndefined();
  });

  // A schema is one component: a second name would give it two entries and two $refs.
  it('refuses a second name for the same schema', () => {
    const schema = named('First', object({ a: string }));
    expect(() => named('Second', schema)).toThrow("A schema named 'First' cannot also be named 'Second'");
  });
});
