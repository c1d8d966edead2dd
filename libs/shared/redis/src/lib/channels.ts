/**
 * What the instances of the service tell each other through Redis, and the rate-limit counters they share:
 * one list, so the API and the redirect app (separate deployments) speak the same names.
 */
export const CACHE_CHANNELS = {
  /** { domainId: string | null, slug: string }: a link changed; every instance evicts it. */
  linkChanged: 'lnk:link-changed',
  /** {}: tokens revoked; every API instance empties its cache of accepted tokens. */
  tokensRevoked: 'lnk:tokens-revoked',
  /** { userId: string }: an account's row changed or went; every API instance forgets its cached copy. */
  accountChanged: 'lnk:account-changed',
  /** { name: string }: a domain verified or unverified; every instance forgets its host. */
  domainChanged: 'lnk:domain-verification-changed',
  /** { ownerId: string }: a change of an owner's links committed; every API instance forgets its cached list answers of that owner. */
  linksChanged: 'lnk:links-changed',
  /** {}: a webhook was created, changed or deleted; every instance (API and redirect app) reads its subscriber cache again. */
  webhooksChanged: 'lnk:webhooks-changed',
  /** {}: an instance could not publish some of the above while Redis was away; every instance empties its caches. */
  resync: 'lnk:resync',
} as const;

/** Prefix of the rate-limit keys in Redis; a budget's key is `${RATE_LIMIT_KEY_PREFIX}default:<kind>:<tracker>`. */
export const RATE_LIMIT_KEY_PREFIX = 'lnk:rl:';

/**
 * Prefix of the sign-in throttle's keys in Redis: `${LOGIN_THROTTLE_KEY_PREFIX}<kind>:<SHA-256 of the key>`
 * counts failures (kind `account`, `ip`, `account-ip`), `...familiar:<SHA-256>` remembers a success.
 */
export const LOGIN_THROTTLE_KEY_PREFIX = 'lnk:login:';

/**
 * One round trip, atomic: count the hit in a fixed window (KEYS[1], window ARGV[1] ms); past the limit
 * (ARGV[2]), block (KEYS[2]) for ARGV[3] ms. Returns { hits, window ms left, block ms left }.
 */
export const FIXED_WINDOW_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
local blocked = redis.call('PTTL', KEYS[2])
if blocked <= 0 and hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  blocked = tonumber(ARGV[3])
end
return { hits, ttl, blocked }`;
