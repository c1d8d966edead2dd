import type { Parse, ParseUnset } from './variables';
import { parseUrl } from '@lnk/shared/kernel';

/**
 * The parsers both apps build their configuration tables from. Each reads a set value or throws an Error
 * whose message follows the variable's name ("must be ...").
 */

/** The value as given. */
export const text: Parse<string> = (raw) => raw;

/** Unset: null; set: read by `parse`. */
export function optional<T>(parse: Parse<T>): ParseUnset<T | null> {
  return Object.assign((raw: string | undefined) => (raw === undefined ? null : parse(raw)), { readsUnset: true as const });
}

/** Unset: a problem saying why the variable is needed; set: read by `parse`. */
export function required<T>(parse: Parse<T>, why: string): ParseUnset<T> {
  return Object.assign(
    (raw: string | undefined) => {
      if (raw === undefined) throw new Error(`is required: ${why}`);
      return parse(raw);
    },
    { readsUnset: true as const },
  );
}

/** A whole number from `min` to `max`. */
export function integer(min: number, max: number): Parse<number> {
  return (raw) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) throw new Error(`must be a whole number from ${min} to ${max} (got "${raw}")`);
    return value;
  };
}

export const boolean: Parse<boolean> = (raw) => {
  if (raw !== 'true' && raw !== 'false') throw new Error(`must be true or false (got "${raw}")`);
  return raw === 'true';
};

export function oneOf<const V extends string>(values: readonly V[]): Parse<V> {
  return (raw) => {
    if (!(values as readonly string[]).includes(raw)) throw new Error(`must be one of ${values.join(', ')} (got "${raw}")`);
    return raw as V;
  };
}

/** A URL of one of the schemes (`'redis:'`), as given. */
export function url(...protocols: string[]): Parse<string> {
  return (raw) => {
    if (!protocols.includes(parseUrl(raw)?.protocol ?? ''))
      throw new Error(`must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    return raw;
  };
}

/**
 * An absolute http(s) URL that may go into a Location header: printable ASCII only (no space, no line
 * break that would split the header), normalised by the URL parser.
 */
export const httpUrl: Parse<string> = (raw) => {
  if (!(isHttp(raw) && /^[\x21-\x7e]+$/.test(raw))) throw new Error('must be an absolute http(s) URL');
  return new URL(raw).href;
};

/** An absolute http(s) URL other addresses are built on: trailing slashes dropped; `path: false` refuses a path. */
export function baseUrl(options: { path: boolean }): Parse<string> {
  return (raw) => {
    const value = raw.replace(/\/+$/, '');
    if (!isHttp(value)) throw new Error(`must be an absolute http(s) URL${options.path ? '' : ' without a path'}`);
    if (!options.path && new URL(value).pathname !== '/') throw new Error('must be an absolute http(s) URL without a path');
    return value;
  };
}

/** Comma-separated entries, blanks dropped, each read by `entry` (every bad entry is named). */
export function list<T = string>(entry: (raw: string) => T = (raw) => raw as T): Parse<T[]> {
  return (raw) => {
    const values: T[] = [];
    const problems: string[] = [];
    for (const item of raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      try {
        values.push(entry(item));
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    if (problems.length) throw new Error(problems.join('; '));
    return values;
  };
}

/** At most `limit` requests per `seconds`. */
export interface RateLimit {
  limit: number;
  seconds: number;
}

/** `requests/seconds`, like 600/60. */
export const rateLimit: Parse<RateLimit> = (raw) => {
  const match = /^(\d{1,7})\/(\d{1,6})$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Error(`must be requests/seconds, like 600/60 (got "${raw}")`);
  return { limit: Number(match[1]), seconds: Number(match[2]) };
};

function isHttp(value: string): boolean {
  return /^https?:$/.test(parseUrl(value)?.protocol ?? '');
}
