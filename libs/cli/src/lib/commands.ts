import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DataSource } from 'typeorm';
import { PageRequest, QuotaResource, UNLIMITED } from '@lnk/shared/kernel';
import type { CustomLimitsChange } from '@lnk/billing/domain';
import { AppConfig, composeContexts, Contexts, openBus } from '@lnk/composition';
import { RedisBus } from '@lnk/shared/redis';
import { createLogger } from '@lnk/shared/logging';
import { ServiceMetrics } from '@lnk/shared/metrics';
import { presentClient, presentCreatedToken, presentUser } from '@lnk/identity/adapter-nest';
import { CreateLinkUseCase, ListLinksUseCase } from '@lnk/links/domain';
import { presentLink, presentLinkListItem, ShortUrlBases } from '@lnk/links/adapter-nest';
import { presentPlan, presentSubscription } from '@lnk/billing/adapter-nest';

export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
  /** The whole of standard input, for `--password-stdin`; absent means none. */
  readStdin?(): Promise<string>;
  /** Asks without echoing what is typed; present only when standard input is a terminal. */
  promptSecret?(question: string): Promise<string>;
}

/** Bad input: exit 2 with the message. */
export class UsageError extends Error {}

interface Flag {
  name: string;
  /** What the value stands for in the help; absent for a switch. */
  value?: string;
  multiple?: boolean;
  required?: boolean;
  text: string;
}

type Values = Record<string, string | boolean | string[] | undefined>;

/**
 * The database the command works on (opened by the caller, who closes it), and the contexts bound to it,
 * composed when first asked for. A command that changes what running servers cache (a revoked token, a
 * new link over a remembered 404) also opens the Redis bus they listen on, when REDIS_URL is set; the
 * session closes it, or the connections would keep the process alive after the command.
 */
export class CommandSession {
  private composed: Contexts | undefined;
  private bus: RedisBus | null = null;

  constructor(
    readonly dataSource: DataSource,
    readonly config: AppConfig,
    private readonly tellsServers = false,
  ) {}

  get contexts(): Contexts {
    if (!this.composed) {
      const logger = createLogger(this.config, 2);
      this.bus = this.tellsServers ? openBus(this.config, logger) : null;
      this.composed = composeContexts(this.dataSource, this.config, logger, new ServiceMetrics(), this.bus);
    }
    return this.composed;
  }

  async close(): Promise<void> {
    await this.bus?.close();
    this.bus = null;
  }
}

export interface CommandInput {
  values: Values;
  /** The new password, for commands that take one, read before the database opens. */
  password?: string;
}

export interface CliCommand {
  summary: string;
  flags: Flag[];
  /** Lines after the options in the command's own help. */
  notes?: string[];
  /** Takes a new password: from --password-stdin, a prompt on the terminal, or --password. */
  newPassword?: boolean;
  /** Changes what running servers cache, so they are told through Redis (when REDIS_URL is set). */
  tellsServers?: boolean;
  run(input: CommandInput, session: CommandSession): Promise<unknown>;
}

const PASSWORD_FLAGS: Flag[] = [
  { name: 'password-stdin', text: 'read the password from standard input (one trailing newline is dropped)' },
  {
    name: 'password',
    value: 'P',
    text: 'the password itself: it shows in the process list, the shell history and the banner of `npm run` without -s',
  },
];
const PASSWORD_NOTE = 'Without a password option, the password is asked for on the terminal, twice, and not shown.';

const PAGE_FLAGS: Flag[] = [
  { name: 'limit', value: 'N', text: `at most N items (1 to ${PageRequest.MAX_LIMIT}, default ${PageRequest.DEFAULT_LIMIT})` },
  { name: 'start', value: 'N', text: 'skip the first N items (default 0)' },
];

/** The account a command acts on, by its e-mail address: --email, or --owner where it owns what is made. */
const accountFlag = (name: 'email' | 'owner'): Flag => ({ name, value: 'E', required: true, text: "the account's e-mail address" });

/** The account `accountFlag(name)` names (NOT_FOUND when there is none, VALIDATION_ERROR on that flag for a malformed address). */
function accountNamed(values: Values, name: 'email' | 'owner', session: CommandSession) {
  return session.contexts.identity.operator.findUser.execute(text(values, name) as string, name);
}

function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function integer(values: Values, name: string): number | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

function pageOf(values: Values): PageRequest {
  return PageRequest.of(integer(values, 'start'), integer(values, 'limit'));
}

function listOf<T, R>(page: { items: T[]; total: number; start: number; limit: number }, present: (item: T) => R) {
  return { items: page.items.map(present), total: page.total, start: page.start, limit: page.limit };
}

/** `2027-01-31`, `2027-01-31T12:00:00Z`, `2027-01-31T12:00+02:00`: a time needs its offset, or it would be the machine's local time. */
const ISO_DATE_TIME = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d{1,9})?)?(Z|[+-]\d\d:\d\d))?$/;

function dateTime(values: Values, name: string): Date | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!ISO_DATE_TIME.test(value) || Number.isNaN(date.getTime())) {
    throw new UsageError(`--${name} must be an ISO 8601 date-time with its offset, such as 2027-01-31T00:00:00Z`);
  }
  return date;
}

/** A custom limit: a whole number, `unlimited`, or `plan` (the plan's again); absent: unchanged. */
function limitOf(values: Values, name: QuotaResource): number | null | undefined {
  const value = text(values, name);
  if (value === undefined) return undefined;
  if (value === 'plan') return null;
  if (value === 'unlimited') return UNLIMITED;
  if (!/^\d{1,10}$/.test(value) || Number(value) > UNLIMITED)
    throw new UsageError(`--${name} must be a whole number from 0 to ${UNLIMITED}, unlimited, or plan`);
  return Number(value);
}

function scopesOf(values: Values): string[] | undefined {
  const value = text(values, 'scopes');
  return value === undefined ? undefined : value.split(/[\s,]+/).filter(Boolean);
}

export const COMMANDS: Record<string, CliCommand> = {
  'user:create': {
    summary: 'create an account, verified (the operator vouches for the address; no mail is sent)',
    flags: [
      { name: 'email', value: 'E', required: true, text: 'its e-mail address' },
      ...PASSWORD_FLAGS,
      { name: 'name', value: 'N', text: 'its display name' },
    ],
    notes: [PASSWORD_NOTE],
    newPassword: true,
    async run({ values, password }, session) {
      const user = await session.contexts.identity.registerUser.execute({
        email: text(values, 'email') as string,
        password: password as string,
        name: text(values, 'name'),
        // The operator vouches for the address: no verification mail, and the account can use an identity provider.
        verified: true,
      });
      return presentUser(user);
    },
  },
  'user:list': {
    summary: 'list the accounts, oldest first',
    flags: PAGE_FLAGS,
    async run({ values }, session) {
      return listOf(await session.contexts.identity.operator.listUsers.execute(pageOf(values)), presentUser);
    },
  },
  'user:set-password': {
    summary: "set an account's password; as a change by its owner does, it ends every session and revokes every personal access token",
    flags: [accountFlag('email'), ...PASSWORD_FLAGS],
    notes: [PASSWORD_NOTE],
    newPassword: true,
    // The sessions and tokens it revokes must stop working on every server at once.
    tellsServers: true,
    async run({ values, password }, session) {
      return presentUser(await session.contexts.identity.operator.setPassword.execute(text(values, 'email') as string, password as string));
    },
  },
  'token:create': {
    summary: 'create a personal access token for an account; its value is printed once, in the JSON line, and never stored',
    flags: [
      accountFlag('owner'),
      { name: 'name', value: 'N', required: true, text: 'a name to recognise the token by' },
      { name: 'scopes', value: '"s1 s2"', required: true, text: 'what it may do, e.g. "links:read links:write stats:read"' },
      { name: 'expires-at', value: 'ISO', text: 'when it stops working, e.g. 2027-01-31T00:00:00Z (default: never)' },
      { name: 'description', value: 'D', text: 'a longer note' },
    ],
    notes: ['Use it as `Authorization: Bearer <token>`. The owner sees it in GET /user/tokens and can revoke it.'],
    async run({ values }, session) {
      const { token, value } = await session.contexts.identity.operator.createPat.execute(text(values, 'owner') as string, {
        name: text(values, 'name') as string,
        description: text(values, 'description'),
        scopes: scopesOf(values) ?? [],
        expiresAt: dateTime(values, 'expires-at') ?? null,
      });
      return presentCreatedToken(token, value);
    },
  },
  'link:create': {
    summary: "create a short link for an account, with the same checks and the same quota as the API's POST /user/link",
    flags: [
      accountFlag('owner'),
      { name: 'url', value: 'U', required: true, text: 'the destination, http or https' },
      { name: 'slug', value: 'S', text: 'the short path (default: a random one)' },
      { name: 'title', value: 'T', text: 'a title' },
      { name: 'description', value: 'D', text: 'a description' },
    ],
    // A server that answered 404 for the slug a moment ago must forget it.
    tellsServers: true,
    async run({ values }, session) {
      const { links } = session.contexts;
      const owner = await accountNamed(values, 'owner', session);
      // The ports the API's LinksModule builds its use case from (the same checks, quota and events).
      const { ports, settings } = links;
      const create = new CreateLinkUseCase(
        { ...ports, config: { ownHosts: settings.ownHosts } },
        { events: ports.events, unitOfWork: ports.unitOfWork },
      );
      const view = await create.execute(owner.id, {
        url: text(values, 'url'),
        slug: text(values, 'slug'),
        title: text(values, 'title'),
        description: text(values, 'description'),
      });
      return presentLink(view, new ShortUrlBases(session.config).fixed);
    },
  },
  'link:list': {
    summary: "list an account's short links, newest first",
    flags: [accountFlag('owner'), { name: 'q', value: 'Q', text: 'only links whose title, slug or URL contains Q' }, ...PAGE_FLAGS],
    async run({ values }, session) {
      const { links } = session.contexts;
      const owner = await accountNamed(values, 'owner', session);
      const list = new ListLinksUseCase(links.ports.lists);
      const { page, domainNames } = await list.execute(owner.id, text(values, 'q'), pageOf(values));
      return listOf(page, (link) => presentLinkListItem(link, new ShortUrlBases(session.config).fixed, domainNames));
    },
  },
  'client:create': {
    summary: 'create a first-party OAuth client; its secret is printed once, in the JSON line',
    flags: [
      { name: 'name', value: 'N', required: true, text: 'its name, shown on the consent page' },
      { name: 'owner', value: 'E', text: 'records who asked for it; grants that account nothing' },
      { name: 'scopes', value: '"s1 s2"', text: 'the scopes it may ask for (default: all)' },
      { name: 'redirect-uri', value: 'U', multiple: true, text: 'a redirect URI for the authorization-code flow (repeat for more)' },
      { name: 'public', text: 'no secret, for browser or native apps (PKCE)' },
    ],
    notes: ['A first-party client belongs to the service, not to any account: no account can change or delete it.'],
    async run({ values }, session) {
      const identity = session.contexts.identity;
      let requestedBy: string | null = null;
      const ownerEmail = text(values, 'owner');
      if (ownerEmail !== undefined) {
        requestedBy = (await identity.operator.findUser.execute(ownerEmail, 'owner')).id;
      }
      const { client, clientSecret } = await identity.createOAuthClient.execute({
        requestedBy,
        name: text(values, 'name') as string,
        scopes: scopesOf(values),
        redirectUris: (values['redirect-uri'] as string[] | undefined) ?? [],
        isFirstParty: true,
        isPublic: values['public'] === true,
      });
      return presentClient(client, clientSecret);
    },
  },
  'client:list': {
    summary: 'list the first-party OAuth clients and their client ids (never their secrets: only hashes are kept)',
    flags: PAGE_FLAGS,
    async run({ values }, session) {
      return listOf(await session.contexts.identity.operator.listClients.execute(pageOf(values)), (client) => presentClient(client));
    },
  },
  'plan:list': {
    summary: 'list the plans of the catalogue (PLANS), the default one first, with the billing mode',
    flags: [],
    notes: [`A limit of ${UNLIMITED} means unlimited.`],
    async run(_input, session) {
      const plans = session.contexts.billing.operator.plans.execute();
      return { billing: session.config.billingMode, defaultPlan: plans.find((p) => p.price === 0)?.id, items: plans.map(presentPlan) };
    },
  },
  'account:set-plan': {
    summary: 'put an account on a plan of the catalogue, paid or not, without a checkout (its limits hold at once on every server)',
    flags: [accountFlag('email'), { name: 'plan', value: 'P', required: true, text: 'the plan id (plan:list)' }],
    notes: ['A subscription the payment provider bills is cancelled there: the account no longer pays for a plan it does not have.'],
    async run({ values }, session) {
      const { billing } = session.contexts;
      const owner = await accountNamed(values, 'email', session);
      const { subscription, plan, limits } = await billing.operator.assignPlan.execute(owner.id, text(values, 'plan') as string);
      return presentSubscription(subscription, plan, limits);
    },
  },
  'account:set-limits': {
    summary: "give an account limits of its own in place of its plan's (they outlive plan changes until cleared)",
    flags: [
      accountFlag('email'),
      { name: 'links', value: 'N', text: "links it may hold: a number, unlimited, or plan (the plan's again)" },
      { name: 'domains', value: 'N', text: 'custom domains it may have: a number, unlimited, or plan' },
      { name: 'tags', value: 'N', text: 'tags it may have: a number, unlimited, or plan' },
      { name: 'clear', text: "drop every custom limit first: the plan's hold (then the limits given, if any)" },
    ],
    notes: [
      'A lowered limit deletes nothing: an account over it just cannot create more.',
      `Prints the custom limits (null: the plan's) and the account's usage beside its limits (${UNLIMITED}: unlimited).`,
    ],
    async run({ values }, session) {
      const change: CustomLimitsChange = {
        links: limitOf(values, 'links'),
        domains: limitOf(values, 'domains'),
        tags: limitOf(values, 'tags'),
      };
      const clear = values['clear'] === true;
      if (!clear && Object.values(change).every((v) => v === undefined))
        throw new UsageError('give at least one of --links, --domains, --tags, or --clear');
      const { billing } = session.contexts;
      const owner = await accountNamed(values, 'email', session);
      const custom = await billing.operator.setCustomLimits.execute(owner.id, change, clear);
      return { email: owner.email, custom, limits: await billing.limits.execute(owner.id) };
    },
  },
  migrate: {
    summary: 'apply pending database migrations and list the applied ones',
    flags: [],
    async run(_input, session) {
      // Opening the database has applied pending migrations already; report what the database now has.
      const rows: { name: string }[] = await session.dataSource.query('SELECT name FROM migrations ORDER BY id');
      return { migrations: rows.map((r) => r.name) };
    },
  },
};

/** How the CLI is started, for its help: `npm run -s cli --` in a clone, `lnk` in the image (its script says so in LNK_CLI_NAME). */
export const DEFAULT_PROGRAM = 'npm run -s cli --';

function synopsis(flag: Flag): string {
  const body = flag.value ? `--${flag.name} ${flag.value}` : `--${flag.name}`;
  return flag.required ? body : `[${body}]`;
}

/** `--help`: every command with its one-line summary. */
export function usage(program = DEFAULT_PROGRAM): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    `usage: ${program} <command> [options]`,
    '',
    'commands:',
    ...lines,
    '',
    `A command's own options: ${program} <command> --help`,
    'Each command prints one JSON object as its last line; errors go to stderr (exit 2: bad input, 1: anything else).',
  ].join('\n');
}

/** `<command> --help`: the command's options, each with what it does. */
export function commandHelp(name: string, program = DEFAULT_PROGRAM): string {
  const command = COMMANDS[name];
  const passwordChoice = command.newPassword ? ' [--password-stdin | --password P]' : '';
  const plain = command.flags.filter((f) => !(command.newPassword && (f.name === 'password' || f.name === 'password-stdin')));
  const width = Math.max(0, ...command.flags.map((f) => synopsis({ ...f, required: true }).length));
  return [
    `usage: ${program} ${name}${plain.length ? ' ' : ''}${plain.map(synopsis).join(' ')}${passwordChoice}`,
    '',
    command.summary,
    ...(command.flags.length
      ? [
          '',
          'options:',
          ...command.flags.map((f) => `  ${synopsis({ ...f, required: true }).padEnd(width)}  ${f.text}${f.required ? ' (required)' : ''}`),
        ]
      : []),
    ...(command.notes?.length ? ['', ...command.notes] : []),
  ].join('\n');
}

/** Reads the command's options, and its new password, before any database work. */
export async function prepare(command: CliCommand, args: string[], io: CliIo): Promise<CommandInput> {
  const spec: NonNullable<ParseArgsConfig['options']> = {};
  for (const flag of command.flags)
    spec[flag.name] = { type: flag.value ? 'string' : 'boolean', ...(flag.multiple ? { multiple: true } : {}) };
  let values: Values;
  try {
    ({ values } = parseArgs({ args, options: spec, strict: true, allowPositionals: false }) as { values: Values });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const missing = command.flags.filter((f) => f.required && (values[f.name] === undefined || values[f.name] === ''));
  if (missing.length) throw new UsageError(`missing ${missing.map((f) => `--${f.name}`).join(', ')}`);
  return { values, ...(command.newPassword ? { password: await newPassword(values, io) } : {}) };
}

/**
 * From `--password-stdin`, `--password`, or a prompt on the terminal that does not echo. Without any
 * and with no terminal to ask on, a clear error: never a silent wait on a pipe nobody writes to.
 */
async function newPassword(values: Values, io: CliIo): Promise<string> {
  const given = text(values, 'password');
  if (values['password-stdin'] === true) {
    if (given !== undefined) throw new UsageError('give either --password-stdin or --password, not both');
    const input = io.readStdin ? await io.readStdin() : '';
    const password = input.replace(/\r?\n$/, '');
    if (password === '') throw new UsageError('--password-stdin: standard input held no password');
    return password;
  }
  if (given !== undefined) return given;
  if (!io.promptSecret) {
    throw new UsageError(
      'missing --password-stdin or --password, and standard input is no terminal to ask on (pipe the password in with --password-stdin)',
    );
  }
  let first: string;
  let second: string;
  try {
    first = await io.promptSecret('Password: ');
    second = await io.promptSecret('Password again: ');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (first !== second) throw new UsageError('the two passwords differ');
  return first;
}
