import type { HeaderObject, OperationObject, ParameterObject, ResponseObject } from '@nestjs/swagger';
import type { RegisteredRoute } from '@lnk/shared/http';

const ETAG: HeaderObject = {
  description: 'The strong entity tag of the resource as answered: send it in If-None-Match (GET) or If-Match (PUT).',
  schema: { type: 'string' },
};

/**
 * The request headers a route declares through @Route and what they add to its answers: Idempotency-Key on
 * the POSTs that create something (`idempotent`), ETag with If-None-Match or If-Match (`etag`).
 * `responses` is the operation's, its success first; `error` makes an error answer of a description.
 */
export function documentRequestHeaders(
  route: RegisteredRoute,
  operation: OperationObject,
  responses: Record<string, ResponseObject>,
  error: (description: string) => ResponseObject,
): void {
  const success = Object.keys(responses)[0];
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  if (route.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        "Makes a retry safe (Stripe's semantics): the same key with the same body, by " +
        'the same account, within 24 hours answers the first answer again ' +
        '(its status and body, with Idempotent-Replayed: true) without doing the work ' +
        'again. 1 to 255 printable ASCII characters; a UUID is a good key.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$' },
      example: '5f0c6a4e-8a3b-4a8e-9a53-2f3c1d7e9b10',
    });
    responses[success] = {
      ...responses[success],
      headers: {
        ...responses[success].headers,
        'Idempotent-Replayed': {
          description: 'true when this is the kept answer of an earlier request with the same Idempotency-Key',
          schema: { type: 'string', enum: ['true'] },
        },
      },
    };
    responses['409'] = error(
      route.idempotent === 'secret'
        ? 'IDEMPOTENCY_KEY_IN_USE: the first request with this Idempotency-Key still runs; or ' +
            'IDEMPOTENCY_REPLAY_UNAVAILABLE: it was made, and its answer held a secret, which is not kept'
        : 'IDEMPOTENCY_KEY_IN_USE: the first request with this Idempotency-Key still runs; or ' +
            'IDEMPOTENCY_REPLAY_UNAVAILABLE: it was made, and its answer was too large to keep',
    );
    responses['422'] = error('IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used with another body or route');
  }
  if (route.etag) {
    responses[success] = { ...responses[success], headers: { ...responses[success].headers, ETag: ETAG } };
    if (route.method === 'GET') {
      parameters.push({
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'ETags you hold: when the resource still has one of them, the answer is 304 with no body.',
        schema: { type: 'string' },
      });
      responses['304'] = { description: 'Not Modified: the resource still has the ETag you sent', headers: { ETag: ETAG } };
    } else {
      parameters.push({
        name: 'If-Match',
        in: 'header',
        required: false,
        description: 'The ETag you read: the change is made only if the resource still has it (else 412, and nothing changes).',
        schema: { type: 'string' },
      });
      responses['412'] = {
        ...error(
          'PRECONDITION_FAILED: the resource changed since the ETag in If-Match; nothing was changed, the answer carries the current ETag',
        ),
        headers: { ETag: ETAG },
      };
    }
  }
  operation.parameters = parameters;
}
