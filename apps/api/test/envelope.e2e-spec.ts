import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { DomainError, NotFoundError, QuotaExceededError, RateLimitedError, ValidationError } from '@lnk/shared/kernel';
import { integer, object, ok, okPage, Public, Route, serializedOk } from '@lnk/shared/http';
import { TestApp, useTestApp } from './support/test-app';

class Inner {
  @IsString() label!: string;
}

class ProbeBody {
  @IsString() @MaxLength(10) name!: string;
  @IsOptional() @IsBoolean() isFavorite?: boolean;
  @IsOptional() @ValidateNested() @Type(() => Inner) inner?: Inner;
}

class ProbeQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) start?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;
}

const COUNT = object({ count: integer });
const KEPT = serializedOk(ok({ count: 1 }, 'Counted'));

/** Routes that raise each kind of error, so the envelope is tested through real HTTP. */
@Controller('probe')
@Public()
class ProbeController {
  @Post('echo')
  echo(@Body() body: ProbeBody) {
    return ok(body);
  }
  @Get('page')
  page(@Query() query: ProbeQuery) {
    return okPage({ items: ['a'], total: 1, start: query.start ?? 0, limit: query.limit ?? 10 });
  }
  @Get('message')
  message() {
    return ok({ at: new Date('2026-05-06T07:08:09.010Z') }, 'Custom message');
  }
  @Get('nothing')
  nothing() {
    return ok(undefined);
  }
  @Route('GET', 'kept', {
    operationId: 'probeKept',
    answers: COUNT,
    serialized: true,
    summary: 'Kept',
    description: 'Its JSON made once, or made again with fresh=1.',
  })
  kept(@Query('fresh') fresh?: string) {
    return fresh ? ok({ count: 1 }, 'Counted') : KEPT;
  }
  @Get('validation')
  validation() {
    throw ValidationError.field('slug', 'slug is already taken');
  }
  @Get('missing')
  missing() {
    throw new NotFoundError('Link');
  }
  @Get('quota')
  quota() {
    throw new QuotaExceededError('links', 100, 100);
  }
  @Get('limited')
  limited() {
    throw new RateLimitedError(30);
  }
  @Get('forbidden')
  forbidden() {
    throw new DomainError('FORBIDDEN', 'Missing scope links:write');
  }
  @Get('crash')
  crash() {
    const error = new Error('relation "secret_table" does not exist: SELECT * FROM secret_table');
    throw error;
  }
}

@Controller('guarded')
class GuardedController {
  @Get()
  guarded() {
    return 'never';
  }
}

describe('response envelope and errors over HTTP', () => {
  let t: TestApp;
  useTestApp((app) => (t = app), { controllers: [ProbeController, GuardedController] });

  it('wraps a POST result in the envelope with status 200, not 201', async () => {
    const res = await t.request('POST', '/probe/echo', { body: { name: 'ada', isFavorite: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, code: 'OK', message: 'Request successful', data: { name: 'ada', isFavorite: true } });
  });

  it('carries a custom message, and dates as ISO 8601 UTC with milliseconds', async () => {
    const res = await t.request('GET', '/probe/message');
    expect(res.body).toEqual({ status: 200, code: 'OK', message: 'Custom message', data: { at: '2026-05-06T07:08:09.010Z' } });
  });

  // An answer kept as its JSON text (serializedOk: a string) would go out as text/plain without its route's `serialized: true`.
  it('sends an answer kept as JSON text as application/json, the same bytes as one serialised at once', async () => {
    const [kept, fresh] = [await t.request('GET', '/probe/kept'), await t.request('GET', '/probe/kept?fresh=1')];
    for (const answer of [kept, fresh]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
    expect(kept.text).toBe(fresh.text);
    expect(kept.body).toEqual({ status: 200, code: 'OK', message: 'Counted', data: { count: 1 } });
  });

  it('omits data when the answer has none', async () => {
    const res = await t.request('GET', '/probe/nothing');
    expect(res.body).toEqual({ status: 200, code: 'OK', message: 'Request successful' });
  });

  it('puts pagination in meta', async () => {
    const res = await t.request('GET', '/probe/page?start=5&limit=20');
    expect(res.body).toEqual({
      status: 200,
      code: 'OK',
      message: 'Request successful',
      data: ['a'],
      meta: { total: 1, start: 5, limit: 20 },
    });
  });

  it.each([
    ['limit=101', 'limit'],
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['start=-1', 'start'],
    ['start=1.5', 'start'],
  ])('rejects %s with VALIDATION_ERROR on %s', async (query, field) => {
    const res = await t.request('GET', `/probe/page?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.meta.errors.map((e: { name: string }) => e.name)).toEqual([field]);
  });

  it('names each failing field, nested ones dotted, and refuses unknown fields', async () => {
    const res = await t.request('POST', '/probe/echo', { body: { name: 42, isFavorite: 'yes', inner: { label: 7 }, extra: 1 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', message: 'Validation failed' });
    expect(res.body.meta.errors.map((e: { name: string }) => e.name).sort()).toEqual(['extra', 'inner.label', 'isFavorite', 'name']);
    for (const error of res.body.meta.errors) expect(typeof error.error).toBe('string');
  });

  it('rejects a missing required field naming it', async () => {
    const res = await t.request('POST', '/probe/echo', { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.meta.errors).toEqual([{ name: 'name', error: expect.any(String) }]);
  });

  it.each([
    ['malformed JSON', { body: '{"name": ', contentType: 'application/json' }, 'body'],
    ['a wrong content type', { body: 'name=ada', contentType: 'text/plain' }, 'content-type'],
    ['a JSON array for an object', { body: '[1,2]', contentType: 'application/json' }, 'body'],
    ['JSON null', { body: 'null', contentType: 'application/json' }, 'body'],
  ])('answers %s with 400 VALIDATION_ERROR', async (_what, raw, field) => {
    const res = await t.request('POST', '/probe/echo', { raw });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.meta?.errors?.[0]?.name).toBe(field);
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.request('POST', '/probe/echo', {
      raw: { body: JSON.stringify({ name: 'x'.repeat(1_100_000) }), contentType: 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
  });

  it.each([
    ['/probe/validation', 400, 'VALIDATION_ERROR'],
    ['/probe/missing', 404, 'NOT_FOUND'],
    ['/probe/quota', 403, 'QUOTA_EXCEEDED'],
    ['/probe/limited', 429, 'RATE_LIMITED'],
    ['/probe/forbidden', 403, 'FORBIDDEN'],
    ['/user/me', 401, 'UNAUTHORIZED'],
    ['/guarded', 403, 'FORBIDDEN'],
    ['/no/such/route', 404, 'NOT_FOUND'],
  ])('maps %s to %d %s', async (path, status, code) => {
    const res = await t.request('GET', path);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ status, code, message: expect.any(String) });
  });

  it('gives a taken slug as a field error', async () => {
    const res = await t.request('GET', '/probe/validation');
    expect(res.body.meta).toEqual({ errors: [{ name: 'slug', error: 'slug is already taken' }] });
  });

  it('describes the quota in meta.limit', async () => {
    const res = await t.request('GET', '/probe/quota');
    expect(res.body.meta).toEqual({ limit: { resource: 'links', used: 100, limit: 100 } });
  });

  it('tells a rate-limited caller when to retry', async () => {
    const res = await t.request('GET', '/probe/limited');
    expect(res.headers.get('retry-after')).toBe('30');
  });

  it('answers an unexpected error with a generic 500 that leaks no stack or SQL', async () => {
    const res = await t.request('GET', '/probe/crash');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 500, code: 'INTERNAL_ERROR', message: 'Internal server error' });
    expect(res.text).not.toMatch(/secret_table|SELECT|at \w+ \(/);
  });

  it('answers /health with the database up', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, code: 'OK', message: 'Service is healthy', data: { status: 'ok', database: 'up' } });
  });
});
