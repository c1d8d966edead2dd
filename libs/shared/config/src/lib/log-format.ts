import { oneOf, optional } from './parsers';
import type { VariableTable } from './variables';

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * How both apps (and the worker and the CLI, with the API's settings) write their log: JSON lines for a
 * log collector, readable lines for a person. Unset (null): decided by the process, by whether the log's
 * output is a terminal.
 */
export const LOG_FORMAT_VARIABLES = {
  LOG_FORMAT: {
    default: 'json (pretty on a terminal)',
    description:
      'json: one JSON object a line; pretty: readable lines (time, level, message, then the fields on the same ' +
      'line), credentials redacted alike; unset: pretty when the log goes to a terminal, else json',
    parse: optional(oneOf(LOG_FORMATS)),
  },
} satisfies VariableTable;
