import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, mergeMap, Observable, of } from 'rxjs';
import { Ok, OkStream, Raw, SuccessEnvelope } from './envelope';
import { streamedList } from './streamed-list';

/**
 * Wraps every successful handler result in the envelope. Errors never pass through here; the
 * exception filter renders those. Status is always 200 on success (spec 4), creations included. A
 * streamed list (OkStream) is written as its items are read, in the same envelope (streamed-list.ts).
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      mergeMap((result: unknown) => {
        if (result instanceof OkStream) return from(streamedList(result));
        if (result instanceof Raw) return of(result.body);
        const reply = result instanceof Ok ? result : new Ok(result === undefined ? undefined : result, 'Request successful');
        const envelope: SuccessEnvelope = { status: 200, code: 'OK', message: reply.message };
        if (reply.data !== undefined) envelope.data = reply.data;
        if (reply.meta !== undefined) envelope.meta = reply.meta;
        return of(envelope);
      }),
    );
  }
}
