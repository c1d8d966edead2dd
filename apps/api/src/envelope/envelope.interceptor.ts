import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { map, Observable } from 'rxjs';
import { Ok, Raw, SuccessEnvelope } from './envelope';

/**
 * Wraps every successful handler result in the envelope. Errors never pass through here; the
 * exception filter renders those. Status is always 200 on success (spec 4), creations included.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof Raw) return result.body;
        const reply = result instanceof Ok ? result : new Ok(result === undefined ? undefined : result, 'Request successful');
        const envelope: SuccessEnvelope = { status: 200, code: 'OK', message: reply.message };
        if (reply.data !== undefined) envelope.data = reply.data;
        if (reply.meta !== undefined) envelope.meta = reply.meta;
        return envelope;
      }),
    );
  }
}
