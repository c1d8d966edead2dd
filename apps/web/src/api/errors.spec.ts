import { answer, ApiError, fieldErrorsOf, plainMessage } from './errors';

describe('refusals from the API, for forms and pages', () => {
  it('maps meta.errors to each field, nested names also under their top field, first message kept', () => {
    expect(
      fieldErrorsOf({
        meta: {
          errors: [
            { name: 'scopes.1', error: 'unknown scope' },
            { name: 'name', error: 'name is required' },
            { name: 'name', error: 'a second reason' },
            { name: 7, error: 'not a field' },
          ],
        },
      }),
    ).toEqual({ 'scopes.1': 'unknown scope', scopes: 'unknown scope', name: 'name is required' });
    expect(fieldErrorsOf({})).toEqual({});
  });

  it('throws the error envelope as an ApiError, and returns the envelope of a success', async () => {
    const envelope = { status: 403, code: 'REAUTHENTICATION_REQUIRED', message: 'This action needs a sign-in from the last 10 minutes' };
    const refused = answer(Promise.resolve({ error: envelope, response: new Response(null, { status: 403 }) }));
    await expect(refused).rejects.toMatchObject({
      status: 403,
      code: 'REAUTHENTICATION_REQUIRED',
      needsPassword: true,
      message: envelope.message,
    });
    const ok = { status: 200, code: 'OK', message: 'Token created', data: { id: 'x' } };
    await expect(answer(Promise.resolve({ data: ok, response: new Response(null, { status: 200 }) }))).resolves.toBe(ok);
  });

  it("says what went wrong in plain words, without the service's internals for faults", () => {
    expect(plainMessage(new ApiError({ code: 'VALIDATION_ERROR', message: 'Validation failed' }, 400))).toBe('Validation failed');
    expect(plainMessage(new ApiError({ code: 'INTERNAL_ERROR', message: 'Internal server error' }, 500))).toBe(
      'The service could not answer just now. Try again in a moment.',
    );
    expect(plainMessage(new ApiError({}, 429))).toBe('Too many requests just now. Wait a moment and try again.');
    expect(plainMessage(new TypeError('fetch failed'))).toBe('The service cannot be reached. Check your connection and try again.');
    expect(new ApiError({}, 502).message).toBe('The service answered 502');
  });
});
