import type { ErrorEnvelope } from '@lnk/sdk';

/** A refusal from the API, as its error envelope said it ({status, code, message, meta.errors}). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Each failing field's message, by the field's name (`scopes`, `expiresAt`, `meta.errors` of the envelope). */
  readonly fields: Readonly<Record<string, string>>;

  constructor(envelope: Partial<ErrorEnvelope> & { status?: number }, status: number) {
    super(typeof envelope.message === 'string' && envelope.message ? envelope.message : `The service answered ${status}`);
    this.name = 'ApiError';
    this.status = typeof envelope.status === 'number' ? envelope.status : status;
    this.code = typeof envelope.code === 'string' ? envelope.code : 'UNKNOWN';
    this.fields = fieldErrorsOf(envelope);
  }

  /** A sensitive action the current sign-in may not take without the account's password. */
  get needsPassword(): boolean {
    return this.code === 'REAUTHENTICATION_REQUIRED';
  }
}

/**
 * meta.errors by field name: the first message of each field (a field refused for two reasons shows the
 * first), nested names (`scopes.0`) also under their top field, which is where a form shows them.
 */
export function fieldErrorsOf(envelope: { meta?: { errors?: readonly { name?: unknown; error?: unknown }[] } }): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const entry of envelope.meta?.errors ?? []) {
    if (typeof entry?.name !== 'string' || typeof entry.error !== 'string') continue;
    fields[entry.name] ??= entry.error;
    const top = entry.name.split('.')[0];
    fields[top] ??= entry.error;
  }
  return fields;
}

/** What the SDK returns: the envelope as `data`, or the refusal as `error`; a request with no answer throws. */
export interface SdkResult<T> {
  data?: T;
  error?: unknown;
  response?: Response;
}

/** The answer's envelope, or the refusal thrown as an ApiError (for TanStack Query, which expects throws). */
export async function answer<T>(call: Promise<SdkResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response?.ok) {
    throw new ApiError((typeof error === 'object' && error !== null ? error : {}) as Partial<ErrorEnvelope>, response?.status ?? 0);
  }
  return data as T;
}

/** Words for a person, whatever went wrong. */
export function plainMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return 'Too many requests just now. Wait a moment and try again.';
    if (error.status >= 500) return 'The service could not answer just now. Try again in a moment.';
    return error.message;
  }
  if (error instanceof TypeError) return 'The service cannot be reached. Check your connection and try again.';
  return error instanceof Error ? error.message : 'Something went wrong.';
}
