import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { BoundedCache } from '@lnk/shared/cache';
import { ETAG_ROUTE, etagOf, namesETag } from '@lnk/shared/http';
import { perRoute } from '../auth/route-metadata';
import { AnswerAsIs } from '../envelope/answer-as-is';

/**
 * The ETag of a single resource (@Route's `etag`): every success answer of the route carries the strong
 * tag of its `data` (etagOf), and a GET whose If-None-Match names it answers 304 with no body. A PUT's
 * If-Match is checked by its use case, with its write (a conditional UPDATE): here only its answer is tagged.
 */
@Injectable()
export class ETagInterceptor implements NestInterceptor {
  private readonly tagsOf = perRoute((handler) => this.reflector.get<boolean | undefined>(ETAG_ROUTE, handler) === true);

  /**
   * The tags of answers made as JSON text beforehand (serializedOk: GET /user/me answers the same cached
   * text until the account changes), so that text is not parsed and hashed again on every request.
   */
  private readonly tagsOfTexts = new BoundedCache<string, string>({
    maxEntries: 10_000,
    maxWeight: 16 * 1024 * 1024,
    weigh: (_tag, text) => text.length,
  });

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.tagsOf(context)) return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map((answer) => {
        const etag = typeof answer === 'string' ? this.tagOfText(answer) : tagOfEnvelope(answer);
        if (etag === undefined) return answer;
        void reply.header('etag', etag);
        if (request.method === 'GET' && namesETag(request.headers['if-none-match'], etag, 'weak')) throw new AnswerAsIs(304, null);
        return answer;
      }),
    );
  }

  private tagOfText(text: string): string | undefined {
    const known = this.tagsOfTexts.get(text);
    if (known !== undefined) return known;
    // An answer made as JSON text beforehand (serializedOk) is read back for its data.
    const etag = tagOfEnvelope(JSON.parse(text));
    if (etag !== undefined) this.tagsOfTexts.set(text, etag);
    return etag;
  }
}

function tagOfEnvelope(envelope: unknown): string | undefined {
  return envelope && typeof envelope === 'object' && 'data' in envelope ? etagOf(envelope.data) : undefined;
}
