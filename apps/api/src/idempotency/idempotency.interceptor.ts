import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { DomainError, ValidationError } from '@lnk/shared/kernel';
import { type Caller, ErrorAnswers, type Idempotency, IDEMPOTENT_ROUTE } from '@lnk/shared/http';
import { perRoute } from '../auth/route-metadata';
import { AnswerAsIs } from '../envelope/answer-as-is';
import { IdempotencyKeys } from '@lnk/shared/idempotency';

/** The header a client sends (Stripe's name), and the one a replayed answer carries. */
export const IDEMPOTENCY_KEY = 'idempotency-key';
export const IDEMPOTENT_REPLAYED = 'idempotent-replayed';
/** 1 to 255 printable ASCII characters, spaces inside only (a header value cannot begin or end with one). */
const KEY_FORM = /^[\x21-\x7e](?:[\x20-\x7e]{0,253}[\x21-\x7e])?$/;
/** The largest first answer kept to replay (its JSON text): a larger one is refused on replay (IDEMPOTENCY_REPLAY_UNAVAILABLE). */
export const MAX_KEPT_ANSWER_BYTES = 64 * 1024;

/**
 * Stripe's Idempotency-Key on the POSTs that create something (@Route's `idempotent`): the first request
 * of a key runs, and its answer is kept for 24 hours; the same key with the same body, by the same
 * account, answers that answer again (its status and body, `Idempotent-Replayed: true`) without running
 * the request again; with another body (or on another route) it is 422 IDEMPOTENCY_KEY_REUSED; while the
 * first still runs, 409 IDEMPOTENCY_KEY_IN_USE. Which answers are kept: successes, and the client errors
 * of a request (4xx: a refused field, a used-up quota, an unknown id) as Stripe keeps them, so a retry
 * with the key gets the same refusal; a fault (5xx, or 429, which says "later") releases the key, and the
 * retry runs. A success holding a secret (`secret`) or larger than 64 KiB is not kept: its replay is
 * 409 IDEMPOTENCY_REPLAY_UNAVAILABLE, and the work is still not done twice.
 *
 * It runs after the guards (the account is known, a refused token never reaches a key) and around the
 * validation pipe and the handler.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');
  private readonly modeOf = perRoute((handler) => this.reflector.get<Idempotency | undefined>(IDEMPOTENT_ROUTE, handler) ?? null);

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: IdempotencyKeys,
    private readonly errors: ErrorAnswers,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const mode = this.modeOf(context);
    if (!mode) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Caller }>();
    const key = request.headers[IDEMPOTENCY_KEY];
    if (key === undefined || !request.user) return next.handle();
    if (typeof key !== 'string' || !KEY_FORM.test(key)) {
      throw ValidationError.field('Idempotency-Key', 'Idempotency-Key must be one value of 1 to 255 printable ASCII characters');
    }
    return from(this.run(mode, request.user.userId, key, request, context.switchToHttp().getResponse<FastifyReply>(), next));
  }

  private async run(
    mode: Idempotency,
    ownerId: string,
    key: string,
    request: FastifyRequest,
    reply: FastifyReply,
    next: CallHandler,
  ): Promise<unknown> {
    const claim = await this.keys.claim(ownerId, key, fingerprintOf(request));
    if (claim.kind === 'reused') {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used with another request: use a new key for a new request',
      );
    }
    if (claim.kind === 'in-use') {
      throw new DomainError(
        'IDEMPOTENCY_KEY_IN_USE',
        'The first request with this Idempotency-Key is still running: retry once it has answered',
      );
    }
    if (claim.kind === 'done') {
      if (claim.answer === null) {
        throw new DomainError(
          'IDEMPOTENCY_REPLAY_UNAVAILABLE',
          mode === 'secret'
            ? 'This Idempotency-Key already made what was asked, and its answer held a ' +
                'secret, which is not kept: list or fetch what it made instead'
            : 'This Idempotency-Key already made what was asked, and its answer was too large to keep: list or fetch what it made instead',
        );
      }
      void reply.header(IDEMPOTENT_REPLAYED, 'true');
      const body = JSON.parse(claim.answer) as { status: number };
      if (claim.status >= 400) throw new AnswerAsIs(claim.status, body as never);
      return body;
    }
    let answer: unknown;
    try {
      answer = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (error) {
      const { envelope } = error instanceof AnswerAsIs && error.body ? { envelope: error.body } : this.errors.render(error);
      if (envelope.status >= 400 && envelope.status < 500 && envelope.status !== 429)
        await this.keep(ownerId, key, claim.claim, envelope.status, JSON.stringify(envelope));
      else await this.release(ownerId, key, claim.claim);
      throw error;
    }
    const status = (answer as { status?: unknown } | undefined)?.status;
    await this.keep(
      ownerId,
      key,
      claim.claim,
      typeof status === 'number' ? status : 200,
      mode === 'secret' ? null : JSON.stringify(answer),
    );
    return answer;
  }

  /** Kept, or not kept past its bound; a failure to keep it releases the key (the next retry runs again, as without a key). */
  private async keep(ownerId: string, key: string, claim: string, status: number, answer: string | null): Promise<void> {
    const kept = answer !== null && Buffer.byteLength(answer) <= MAX_KEPT_ANSWER_BYTES ? answer : null;
    try {
      await this.keys.keep(ownerId, key, claim, { status, answer: kept });
    } catch (error) {
      this.logger.warn(`an idempotent answer was not kept: ${(error as Error).message}`);
      await this.release(ownerId, key, claim);
    }
  }

  private async release(ownerId: string, key: string, claim: string): Promise<void> {
    // Not released (the database is away): the claim lapses after CLAIM_LIFETIME.
    await this.keys
      .release(ownerId, key, claim)
      .catch((error: unknown) => this.logger.warn(`an idempotency key was not released: ${(error as Error).message}`));
  }
}

/**
 * What a key is bound to: the method, the path (without the /v1 prefix, the same route) and the body,
 * JSON with its keys in order (the same fields in another order are the same request), or a CSV text.
 */
export function fingerprintOf(request: FastifyRequest): string {
  const path = request.url.replace(/^\/v1(?=\/)/, '');
  const body = typeof request.body === 'string' || Buffer.isBuffer(request.body) ? request.body : canonicalJson(request.body);
  return createHash('sha256')
    .update(`${request.method} ${path}\n`)
    .update(body ?? '')
    .digest('hex');
}

/** No request body of the API nests past a few levels: a deeper one is refused rather than walked. */
const MAX_DEPTH = 32;

function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) throw ValidationError.field('body', `the body nests more than ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
