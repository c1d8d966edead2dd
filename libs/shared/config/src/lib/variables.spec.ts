import { baseUrl, boolean, httpUrl, integer, list, oneOf, optional, rateLimit, required, text, url } from './parsers';
import { ConfigError, readVariables } from './variables';

describe('readVariables', () => {
  const table = {
    PORT: { default: '3000', description: 'HTTP port', parse: integer(0, 65535) },
    LOUD: { default: 'false', description: 'a flag', parse: boolean },
    TOKEN: { default: '(unset)', description: 'a secret', parse: optional(text) },
    DATABASE_URL: {
      default: '(required)',
      description: 'the database',
      parse: required(url('postgres:'), 'there is no embedded database'),
    },
  };

  // The documented default is the value used: the documentation cannot show one default while the app uses another.
  it('reads an unset or empty variable as its documented default, and optional ones as null', () => {
    const { values, problems } = readVariables(table, { PORT: '', DATABASE_URL: 'postgres://db/app' });
    expect(problems).toEqual([]);
    expect(values).toEqual({ PORT: 3000, LOUD: false, TOKEN: null, DATABASE_URL: 'postgres://db/app' });
  });

  // One start-up error lists everything to fix, not one problem per restart.
  it('collects every problem, each starting with its variable, and keeps defaults for the checks that follow', () => {
    const { values, problems } = readVariables(table, { PORT: 'x', LOUD: 'yes' });
    expect(problems).toEqual([
      'PORT must be a whole number from 0 to 65535 (got "x")',
      'LOUD must be true or false (got "yes")',
      'DATABASE_URL is required: there is no embedded database',
    ]);
    expect(values).toMatchObject({ PORT: 3000, LOUD: false, TOKEN: null });
  });

  it('does not name the variable twice when the parser already did', () => {
    const named = {
      LIST: {
        default: '(unset)',
        description: '',
        parse: optional(() => {
          throw new Error('LIST[0] must be an object');
        }),
      },
    };
    expect(readVariables(named, { LIST: '[1]' }).problems).toEqual(['LIST[0] must be an object']);
  });
});

describe('the shared parsers', () => {
  it('integer: whole numbers within bounds only', () => {
    expect(integer(1, 10)('10')).toBe(10);
    for (const bad of ['0', '11', '-1', '1.5', '1e1', ' 2']) expect(() => integer(1, 10)(bad)).toThrow(/from 1 to 10/);
  });

  it('oneOf and boolean: the listed words only', () => {
    expect(oneOf(['a', 'b'])('b')).toBe('b');
    expect(() => oneOf(['a', 'b'])('c')).toThrow('must be one of a, b (got "c")');
    expect(() => boolean('TRUE')).toThrow(/true or false/);
  });

  it('url: only the given schemes', () => {
    expect(url('redis:', 'rediss:')('rediss://cache:6379')).toBe('rediss://cache:6379');
    expect(() => url('redis:', 'rediss:')('http://cache')).toThrow('must be a URL starting with redis:// or rediss://');
  });

  // A Location header must not carry another scheme (javascript:) or a character that splits the header.
  it('httpUrl: absolute http(s), printable, normalised', () => {
    expect(httpUrl('https://Example.com')).toBe('https://example.com/');
    for (const bad of ['/relative', 'javascript:alert(1)', 'https://example.com/a b', 'https://example.com/\r\nX: y'])
      expect(() => httpUrl(bad)).toThrow(/absolute http\(s\) URL/);
  });

  it('baseUrl: trailing slashes dropped, a path refused unless allowed', () => {
    expect(baseUrl({ path: false })('https://s.example//')).toBe('https://s.example');
    expect(() => baseUrl({ path: false })('https://s.example/x')).toThrow(/without a path/);
    expect(baseUrl({ path: true })('https://app.example/api/')).toBe('https://app.example/api');
  });

  it('list: trims, drops blanks, names every bad entry', () => {
    expect(list()(' a, ,b ')).toEqual(['a', 'b']);
    const even = list((raw) => {
      if (Number(raw) % 2) throw new Error(`entry "${raw}" is odd`);
      return Number(raw);
    });
    expect(even('2,4')).toEqual([2, 4]);
    expect(() => even('1,2,3')).toThrow('entry "1" is odd; entry "3" is odd');
  });

  it('rateLimit: requests/seconds, both at least 1', () => {
    expect(rateLimit('600/60')).toEqual({ limit: 600, seconds: 60 });
    for (const bad of ['0/60', '600/0', '600', 'a/b']) expect(() => rateLimit(bad)).toThrow(/requests\/seconds/);
  });

  // Each process prints the message as it is: one line per problem, each naming its variable, no header alone on a line.
  it('words a ConfigError as one line per problem', () => {
    expect(new ConfigError(['TRUST_PROXY must be true or false']).message).toBe('Invalid configuration: TRUST_PROXY must be true or false');
    expect(new ConfigError(['PORT must be a number', 'LOUD must be true or false']).message.split('\n')).toEqual([
      'Invalid configuration: PORT must be a number',
      'Invalid configuration: LOUD must be true or false',
    ]);
  });
});
