// Every environment variable Toolroom's processes read (web app, gateway, workers, the scripts
// production runs, `npm start`), declared once: its rule, default and what it means. README.md's
// variable tables are generated from these declarations (`npm run docs:config`; a unit test fails when
// they differ), so a variable documented there is one the code reads, and the other way round.
//
// The environment is parsed on first use, once per process (`config()`), not at import: `next build`
// imports route modules without the production environment. A value that breaks its rule stops the
// process at start (`loadConfigOrExit()` in every entry point) with a message naming the variable, the
// rule and the value, secrets masked. An empty value counts as unset, as in most deploy tooling.
//
// Variables that libraries read themselves (OTEL_*, NODE_ENV) are documented here too, and parsed no
// stricter than those libraries read them, so declaring them changes nothing about how they behave.
import 'server-only'
import type { BlockList } from 'node:net'
import { z } from 'zod'
import { parseTrustedProxies } from '@/lib/net/trusted-proxies'
import { type AddressPolicy, parseAddressPolicy } from '@/lib/net/address-policy'
import { DEFAULT_EMBEDDED_PG_PORT } from '@/scripts/embedded-db-url.mjs'

/** The statistics' window in days (lib/stats/stats-window.ts): the call log is kept at least this long. */
export const STATS_WINDOW_DAYS = 7

/** Where a variable's row goes in README.md: one table per group, in the section about that part. */
export const CONFIG_GROUPS = ['core', 'access', 'gateway', 'discovery', 'approvals', 'statistics', 'oauth', 'production'] as const
export type ConfigGroup = (typeof CONFIG_GROUPS)[number]

/** A value's rule: what the README's "values" column says and the error message quotes. */
interface Kind<T> {
  rule: string
  /** Throws (with a detail worth showing, or none) when the text breaks the rule. */
  read(text: string): T
  /** Numeric bounds, for the property test that random text never slips through. */
  bounds?: { min: number; max: number }
  /** How a value may be shown in an error message. */
  shown?: 'as-is' | 'url-without-credentials' | 'never'
}

interface Info<T> {
  group: ConfigGroup
  meaning: string
  default?: T
  /** The README's "default" column when the default is not a plain value (derived, or set elsewhere). */
  shownDefault?: string
  /** A secret: never shown in messages, only its length. */
  secret?: boolean
  /** Read by a library too (its name), which is why the rule is no stricter than the library's. */
  alsoReadBy?: string
}

export interface Declaration<T = unknown> {
  group: ConfigGroup
  meaning: string
  rule: string
  defaultText: string
  secret: boolean
  alsoReadBy?: string
  bounds?: { min: number; max: number }
  shown: 'as-is' | 'url-without-credentials' | 'never'
  schema: z.ZodType<T, string | undefined>
}

class RuleBroken extends Error {}
const broken = (detail = ''): never => {
  throw new RuleBroken(detail)
}

function variable<T>(kind: Kind<T>, info: Info<NoInfer<T>> & { default: NoInfer<T> }): Declaration<T>
function variable<T>(kind: Kind<T>, info: Info<NoInfer<T>>): Declaration<T | undefined>
function variable<T>(kind: Kind<T>, info: Info<T>): Declaration {
  const base = z.string().transform((text, ctx) => {
    try {
      return kind.read(text)
    } catch (error) {
      const detail = error instanceof RuleBroken ? error.message : (error as Error).message
      ctx.addIssue({ code: 'custom', message: detail || 'breaks its rule', params: { detail } })
      return z.NEVER
    }
  })
  const schema = info.default === undefined ? base.optional() : base.default(info.default as never)
  return {
    group: info.group,
    meaning: info.meaning,
    rule: kind.rule,
    defaultText: info.shownDefault ?? shownDefault(info.default),
    secret: info.secret ?? false,
    alsoReadBy: info.alsoReadBy,
    bounds: kind.bounds,
    shown: info.secret ? 'never' : (kind.shown ?? 'as-is'),
    schema: schema as z.ZodType<unknown, string | undefined>,
  }
}

function shownDefault(value: unknown): string {
  if (value === undefined) return 'none'
  if (typeof value === 'boolean') return value ? '`1` (on)' : '`0` (off)'
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.length ? `\`${value.join(',')}\`` : 'none'
  return `\`${String(value)}\``
}

// ---- the kinds of values ----

function integer(min: number, max: number): Kind<number> {
  return {
    rule: `an integer from ${min} to ${max}`,
    bounds: { min, max },
    read(text) {
      const value = /^\s*\d{1,16}\s*$/.test(text) ? Number(text) : NaN
      return Number.isSafeInteger(value) && value >= min && value <= max ? value : broken()
    },
  }
}

function decimal(min: number, max: number): Kind<number> {
  return {
    rule: `a number from ${min} to ${max}`,
    bounds: { min, max },
    read(text) {
      const value = /^\s*\d{1,16}(\.\d{1,16})?\s*$/.test(text) ? Number(text) : NaN
      return Number.isFinite(value) && value >= min && value <= max ? value : broken()
    },
  }
}

const port = (min: 0 | 1): Kind<number> => ({ ...integer(min, 65535), rule: `an integer from ${min} to 65535${min === 0 ? ' (0: any free port)' : ''}` })

const flag: Kind<boolean> = {
  rule: '`1` (on) or `0` (off)',
  read: (text) => (text.trim() === '1' ? true : text.trim() === '0' ? false : broken()),
}

function oneOf<const V extends string>(values: readonly V[], { anyCase = false } = {}): Kind<V> {
  return {
    rule: `one of ${values.map((v) => `\`${v}\``).join(', ')}${anyCase ? ' (any case)' : ''}`,
    read(text) {
      const value = anyCase ? text.trim().toLowerCase() : text.trim()
      return (values as readonly string[]).includes(value) ? (value as V) : broken()
    },
  }
}

const text: Kind<string> = { rule: 'text', read: (value) => value.trim() }
const opaqueText: Kind<string> = { rule: 'text', read: (value) => value }

/** A comma list; entries trimmed, empty ones dropped. */
function list(rule: string, entry: (text: string) => string = (e) => e): Kind<string[]> {
  return {
    rule,
    read: (value) =>
      value
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)
        .map(entry),
  }
}

function httpUrl(what = 'an `http` or `https` URL'): Kind<string> {
  return {
    rule: what,
    shown: 'url-without-credentials',
    read(value) {
      const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null
      return url && (url.protocol === 'http:' || url.protocol === 'https:') ? value.trim() : broken()
    },
  }
}

const postgresUrl: Kind<string> = {
  rule: 'a `postgres://` or `postgresql://` URL',
  shown: 'url-without-credentials',
  read(value) {
    const url = URL.canParse(value.trim()) ? new URL(value.trim()) : null
    return url && (url.protocol === 'postgres:' || url.protocol === 'postgresql:') ? value : broken()
  },
}

const host: Kind<string> = {
  rule: 'an IP address or host name',
  read(value) {
    const name = value.trim()
    const ok = /^[0-9a-f:.]+$/i.test(name) || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(name)
    return ok && name.length <= 253 ? name : broken()
  },
}

// Sealing keys are hashed into the session and peer-proof keys as written, so the text is kept as given.
function isSealingKey(value: string): boolean {
  return /^[A-Za-z0-9+/=_-]+$/.test(value.trim()) && Buffer.from(value.trim(), 'base64').length === 32
}

const sealingKey: Kind<string> = { rule: '32 random bytes, base64-encoded', read: (value) => (isSealingKey(value) ? value : broken()) }

const sealingKeys: Kind<string[]> = {
  rule: 'a comma list of 32-byte keys, base64-encoded',
  read(value) {
    const keys = value
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
    const bad = keys.findIndex((k) => !isSealingKey(k))
    return bad === -1 ? keys : broken(`key ${bad + 1} of ${keys.length} is not 32 bytes in base64`)
  },
}

const adminToken: Kind<string> = {
  rule: '`trk_` followed by 32 to 200 letters, digits, `-` or `_` (e.g. `trk_$(openssl rand -hex 24)`)',
  read: (value) => (/^trk_[A-Za-z0-9_-]{32,200}$/.test(value.trim()) ? value.trim() : broken()),
}

// pg-boss checks the expression itself when it schedules; this catches what is not one at all before that.
const cron: Kind<string> = {
  rule: 'a cron expression (5 fields: minute hour day month weekday)',
  read(value) {
    const fields = value.trim().split(/\s+/)
    return fields.length === 5 && fields.every((f) => /^[0-9A-Za-z*/,?-]+$/.test(f)) ? fields.join(' ') : broken()
  },
}

const outboundPolicy: Kind<AddressPolicy> = {
  rule: 'a comma list of `loopback`, `private`, `public`, IP addresses, CIDRs and host names (`*.svc.cluster.local`)',
  read(value) {
    try {
      return parseAddressPolicy(value)
    } catch (error) {
      return broken((error as Error).message.replace(/^outbound allow-list: /, ''))
    }
  },
}

const trustedProxies: Kind<BlockList | null> = {
  rule: 'a comma list of IP addresses and CIDRs',
  read(value) {
    try {
      return parseTrustedProxies(value)
    } catch (error) {
      return broken((error as Error).message)
    }
  },
}

const origins: Kind<string[]> = {
  rule: 'a comma list of `http` or `https` origins',
  read(value) {
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)
    return entries.map((entry) => {
      const url = URL.canParse(entry) ? new URL(entry) : null
      return url && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin : broken(`"${entry.slice(0, 100)}" is not an origin`)
    })
  },
}

const MIB = 1024 * 1024

// ---- the variables, grouped as the README's tables ----

const DECLARATIONS = {
  // core: npm start, the database, keys, where things listen
  DATABASE_URL: variable(postgresUrl, {
    group: 'core',
    meaning: 'the PostgreSQL (15–17) to use; `npm start` applies the migrations to it',
    shownDefault: 'embedded PostgreSQL 17 in `.data/pg17` (`npm start` runs it; see `TOOLROOM_EMBEDDED_PG_PORT`)',
  }),
  TOOLROOM_SECRET_KEY: variable(sealingKey, {
    group: 'core',
    meaning: 'the key that seals Secret values (and signs sessions); every process that shares a database needs the same one',
    shownDefault: 'generated into `.data/secret-key` by `npm start`',
    secret: true,
  }),
  TOOLROOM_SECRET_KEYS_PREVIOUS: variable(sealingKeys, {
    group: 'core',
    meaning: 'earlier keys, only to open secrets sealed before a key change (`npm run secrets:reencrypt`)',
    default: [],
    secret: true,
  }),
  PORT: variable(port(1), {
    group: 'core',
    meaning: 'the port the portal, API and `/mcp` are served on (by the gateway front, or Next.js without it)',
    default: 3000,
    alsoReadBy: 'Next.js',
  }),
  HOST: variable(host, {
    group: 'core',
    meaning: 'the address they bind',
    default: '127.0.0.1',
    shownDefault: '`127.0.0.1`; `0.0.0.0` in the image',
  }),
  TOOLROOM_PUBLIC_URL: variable(httpUrl(), {
    group: 'core',
    meaning: 'the base URL people and agents reach Toolroom at (in `config.yaml`, sign-in redirects, the CSRF origin check, the MCP resource)',
    shownDefault: "the request's origin as the public port received it (see `config.yaml`)",
  }),
  TOOLROOM_DATA_DIR: variable(text, { group: 'core', meaning: 'where `npm start` keeps the embedded database and the generated key', default: '.data' }),
  TOOLROOM_EMBEDDED_PG_PORT: variable(port(1), {
    group: 'core',
    meaning: 'the port of the embedded PostgreSQL `npm start` runs when `DATABASE_URL` is unset',
    // Unset, each data directory keeps a port of its own (scripts/embedded-pg-port.mjs), so checkouts side by side need nothing set.
    shownDefault: `a free one, remembered in \`TOOLROOM_DATA_DIR/embedded-pg-port.json\` (${DEFAULT_EMBEDDED_PG_PORT} when free at the first start)`,
  }),
  TOOLROOM_DEMO: variable(flag, {
    group: 'core',
    meaning: '`1`: `npm start` seeds the demo fleet into `DATABASE_URL` too (always into the embedded database)',
    default: false,
  }),
  TOOLROOM_DEMO_TRAFFIC: variable(flag, {
    group: 'core',
    meaning:
      '`0`: the demo fleet stays quiet: no week of call history when it is first seeded, and no demo agents calling through the gateway while `npm start` runs (lib/seed/demo-traffic.ts; never under `npm run dev`)',
    default: true,
  }),
  TOOLROOM_DEMO_PORT: variable(port(0), {
    group: 'core',
    meaning:
      "the first port of the demo fleet's local MCP servers and agent listener (they take consecutive ports from here, read when the fleet is first seeded); `0`: free ports, so a second checkout can run beside the first",
    default: 4801,
  }),
  TOOLROOM_DEV: variable(flag, { group: 'core', meaning: '`1`: `npm start` runs `next dev` (what `npm run dev` sets)', default: false }),
  TOOLROOM_GATEWAY_FRONT: variable(flag, {
    group: 'core',
    meaning: '`0`: Next.js serves the port (and `/mcp`) without the lean gateway in front',
    default: true,
  }),
  TOOLROOM_WEB_INTERNAL_PORT: variable(port(1), { group: 'core', meaning: 'where Next.js listens behind the gateway front', shownDefault: '`PORT` + 1' }),
  TOOLROOM_WORKERS: variable(integer(0, 64), { group: 'core', meaning: 'the worker processes `npm start` runs', default: 1 }),
  TOOLROOM_ANSWER_CACHE_MB: variable(integer(0, 1_048_576), {
    group: 'core',
    meaning: 'memory for cached effective-tool answers, per web process (0: none cached)',
    shownDefault: "a quarter of the process's memory limit (its container's, else the machine's), at most 2048",
  }),
  TOOLROOM_WATCH_STREAMS: variable(integer(0, 1_000_000), {
    group: 'core',
    meaning: 'open `?watch=1` streams per web process; more are answered 429 (each holds a connection and is compared after every registry change)',
    default: 10_000,
  }),
  TOOLROOM_CHECK_RESPONSES: variable(flag, {
    group: 'core',
    meaning:
      "`1`: every API answer is parsed against its route's contract and a mismatch becomes a 500 naming it (the integration tests set it; it costs a serialization and a parse per answer)",
    default: false,
  }),

  // access: people, tokens, sessions, the client address
  TOOLROOM_ADMIN_TOKEN: variable(adminToken, {
    group: 'access',
    meaning: 'an admin API token for automation, ensured at start (changed: replaced; unset: revoked)',
    secret: true,
  }),
  TOOLROOM_SESSION_HOURS: variable(decimal(0.01, 8760), { group: 'access', meaning: 'how long a sign-in lasts', default: 12 }),
  TOOLROOM_SIGNIN_ATTEMPTS: variable(integer(1, 1_000_000), {
    group: 'access',
    meaning: 'failed sign-in attempts allowed per account and window, from any address (successful ones use up nothing)',
    default: 10,
  }),
  TOOLROOM_SIGNIN_WINDOW_SECONDS: variable(integer(1, 2_592_000), { group: 'access', meaning: 'that window', default: 300 }),
  TOOLROOM_TRUSTED_PROXIES: variable(trustedProxies, {
    group: 'access',
    meaning:
      "proxies whose `X-Forwarded-For` (the client address: the token endpoint's failure limit, the audit log) and `X-Forwarded-Host`/`-Proto` (`config.yaml`, the MCP resource) are believed; set it behind an ingress",
    shownDefault: 'none',
  }),
  TOOLROOM_API_TOKEN_CACHE_MS: variable(integer(0, 600_000), {
    group: 'access',
    meaning: 'how long a web process remembers an authenticated API token (revocations elsewhere take effect within it)',
    default: 2000,
  }),
  TOOLROOM_OIDC_ISSUER: variable(httpUrl(), {
    group: 'access',
    meaning: 'single sign-on: the OpenID Connect issuer (with the client id and secret; all three, or none)',
  }),
  TOOLROOM_OIDC_CLIENT_ID: variable(text, { group: 'access', meaning: 'single sign-on: the client id' }),
  TOOLROOM_OIDC_CLIENT_SECRET: variable(text, { group: 'access', meaning: 'single sign-on: the client secret', secret: true }),
  TOOLROOM_OIDC_DISCOVERY_URL: variable(httpUrl(), {
    group: 'access',
    meaning: "single sign-on: a discovery document other than the issuer's",
    shownDefault: '`<issuer>/.well-known/openid-configuration`',
  }),
  TOOLROOM_OIDC_NAME: variable(text, { group: 'access', meaning: "single sign-on: the sign-in button's label", default: 'single sign-on' }),
  TOOLROOM_OIDC_SCOPES: variable(text, {
    group: 'access',
    meaning: 'single sign-on: the scopes asked for (space- or comma-separated)',
    default: 'openid email profile',
  }),
  BETTER_AUTH_SECRET: variable(opaqueText, {
    group: 'access',
    meaning: 'signs sessions instead of a key derived from `TOOLROOM_SECRET_KEY`',
    shownDefault: 'derived from `TOOLROOM_SECRET_KEY`',
    secret: true,
  }),

  // gateway: /mcp, the pipeline, upstream calls
  GATEWAY_PORT: variable(port(0), {
    group: 'gateway',
    meaning: "the port a gateway process (`npm run gateway`, the image's `gateway`) listens on",
    shownDefault: '`PORT`',
  }),
  TOOLROOM_GATEWAY_UPSTREAM: variable(httpUrl('an `http` URL (the Next.js origin)'), {
    group: 'gateway',
    meaning: 'the web app a gateway passes every path but `/mcp` to (`npm start` sets it)',
    shownDefault: 'none: the process serves `/mcp` only',
  }),
  TOOLROOM_ENABLE_OS_TOOLS: variable(flag, { group: 'gateway', meaning: '`1` lets the gateway run `os` tools', default: false }),
  TOOLROOM_AGENT_CALLS_PER_MINUTE: variable(integer(0, 1_000_000_000), {
    group: 'gateway',
    meaning: 'per-agent call limit per minute when the Agent sets no `spec.rateLimit`',
    shownDefault: 'none',
  }),
  TOOLROOM_AGENT_CALLS_PER_DAY: variable(integer(0, 1_000_000_000), {
    group: 'gateway',
    meaning: 'per-agent call limit per day when the Agent sets no `spec.rateLimit`',
    shownDefault: 'none',
  }),
  TOOLROOM_AGENT_AUTH_CACHE_MS: variable(integer(0, 600_000), {
    group: 'gateway',
    meaning: 'how long a gateway remembers an authenticated agent credential or OAuth token (a revocation holds within it)',
    default: 3000,
  }),
  TOOLROOM_IDEMPOTENCY_WINDOW_SECONDS: variable(integer(1, 31_536_000), { group: 'gateway', meaning: 'how long an idempotency key holds', default: 86_400 }),
  TOOLROOM_IDEMPOTENCY_WAIT_MS: variable(integer(0, 600_000), {
    group: 'gateway',
    meaning: 'how long a repeat waits for the first call with its key before -32009 "still in progress"',
    default: 30_000,
  }),
  TOOLROOM_IDEMPOTENCY_LEASE_SECONDS: variable(integer(60, 604_800), {
    group: 'gateway',
    meaning: 'after this long a first call whose process died is taken over (longer than any call may run)',
    default: 3900,
  }),
  TOOLROOM_GATEWAY_ALLOWED_ORIGINS: variable(origins, {
    group: 'gateway',
    meaning: "browser origins besides loopback and `TOOLROOM_PUBLIC_URL`'s that may call `/mcp` (DNS rebinding protection)",
    default: [],
  }),
  TOOLROOM_GATEWAY_MAX_BODY_BYTES: variable(integer(1024, 256 * MIB), {
    group: 'gateway',
    meaning: 'largest `/mcp` request body (larger: 413, unread)',
    default: MIB,
    shownDefault: '1048576 (1 MiB)',
  }),
  TOOLROOM_GATEWAY_HEADERS_TIMEOUT_MS: variable(integer(1000, 3_600_000), {
    group: 'gateway',
    meaning: 'the gateway front: request headers must arrive within it (slow-loris)',
    default: 20_000,
  }),
  TOOLROOM_GATEWAY_REQUEST_TIMEOUT_MS: variable(integer(1000, 86_400_000), {
    group: 'gateway',
    meaning: 'the gateway front: a whole request must arrive within it (room for uploads)',
    default: 300_000,
  }),
  TOOLROOM_GATEWAY_MCP_BODY_TIMEOUT_MS: variable(integer(1000, 3_600_000), {
    group: 'gateway',
    meaning: 'the gateway front: an `/mcp` body must arrive within it (else 408)',
    default: 30_000,
  }),
  TOOLROOM_GATEWAY_MAX_RESPONSE_BYTES: variable(integer(1024, 1024 * MIB), {
    group: 'gateway',
    meaning: 'largest answer read from a REST or MCP tool',
    default: 4 * MIB,
    shownDefault: '4194304 (4 MiB)',
  }),
  TOOLROOM_GATEWAY_MAX_ATTEMPTS: variable(integer(1, 10), {
    group: 'gateway',
    meaning: "attempts per call of a read-only or idempotent tool on transient failures (jittered exponential backoff), all within the call's one deadline",
    default: 3,
  }),
  TOOLROOM_GATEWAY_RETRY_BASE_MS: variable(integer(0, 60_000), {
    group: 'gateway',
    meaning: "the first retry's backoff (doubling, at most 2 s)",
    default: 100,
  }),
  TOOLROOM_GATEWAY_MCP_SESSION_TTL_S: variable(integer(1, 86_400), {
    group: 'gateway',
    meaning: 'seconds a pooled session to an upstream MCP server is reused',
    default: 300,
  }),
  TOOLROOM_GATEWAY_MCP_TIMEOUT_MS: variable(integer(1000, 3_600_000), {
    group: 'gateway',
    meaning: 'how long a call forwarded to an MCP server may take, retries and backoff included',
    default: 60_000,
  }),
  TOOLROOM_GATEWAY_SSE_KEEPALIVE_MS: variable(integer(1000, 600_000), {
    group: 'gateway',
    meaning: 'idle event streams (list changes) carry a comment this often',
    default: 15_000,
  }),
  TOOLROOM_GATEWAY_TOOLS_TTL_MS: variable(integer(0, 86_400_000), {
    group: 'gateway',
    meaning: 'the `ttlMs` cache hint on `tools/list` under 2026-07-28',
    default: 30_000,
  }),
  TOOLROOM_GATEWAY_ASYNC_COMMIT: variable(flag, {
    group: 'gateway',
    meaning: '`1`: call records commit without waiting for the WAL flush (faster; a crash may lose the last records)',
    default: false,
  }),

  // discovery, outbound requests and the workers that run them
  TOOLROOM_OUTBOUND_ALLOW: variable(outboundPolicy, {
    group: 'discovery',
    meaning: 'where discovery, the gateway and webhooks may connect; cloud metadata and link-local addresses are always refused',
    default: parseAddressPolicy('loopback,private'),
    shownDefault: '`loopback,private`',
  }),
  TOOLROOM_OUTBOUND_MAX_BYTES: variable(integer(1024, 1024 * MIB), {
    group: 'discovery',
    meaning: 'largest answer discovery reads',
    default: 4 * MIB,
    shownDefault: '4194304 (4 MiB)',
  }),
  TOOLROOM_DISCOVERY_CRON: variable(cron, {
    group: 'discovery',
    meaning: 'when every image and server is rediscovered (and Tool status re-checked)',
    default: '*/15 * * * *',
  }),
  TOOLROOM_PINNED_NAMESPACES: variable(list('a comma list of namespaces'), {
    group: 'discovery',
    meaning: "namespaces whose MCP servers hold changed tool definitions for review (a server's `spec.pinning` overrides)",
    default: [],
  }),
  TOOLROOM_DISCOVERY_READINESS_SECONDS: variable(integer(1, 3600), {
    group: 'discovery',
    meaning: 'how long discovery waits for a listener or server to come up',
    shownDefault: '30 (images), 15 (servers)',
  }),
  TOOLROOM_DISCOVERY_JOB_EXPIRY_SECONDS: variable(integer(1, 86_400), {
    group: 'discovery',
    meaning: 'a discovery job whose worker died is retried after this long',
    default: 120,
  }),
  TOOLROOM_WORKER_JOBS: variable(list('a comma list of job names (`lib/jobs/job-contracts.ts`)'), {
    group: 'discovery',
    meaning: 'the jobs a worker process takes (e.g. `approvals.execute`); a name that is no job stops the worker at start',
    shownDefault: 'every job',
  }),
  TOOLROOM_WORKER_CONCURRENCY: variable(integer(1, 1000), {
    group: 'discovery',
    meaning: 'jobs of one kind a worker runs at once (scheduled jobs: one)',
    default: 8,
  }),
  TOOLROOM_WORKER_POLL_SECONDS: variable(decimal(0.05, 60), {
    group: 'discovery',
    meaning: 'how often an idle worker asks for a job (approved calls: every 0.2 s)',
    default: 1,
  }),
  TOOLROOM_QUEUE_MAINTENANCE_SECONDS: variable(integer(1, 86_400), {
    group: 'discovery',
    meaning: 'how often workers expire and retry the jobs of dead workers',
    default: 30,
  }),

  // approvals and their webhooks
  TOOLROOM_APPROVAL_EXPIRY_SECONDS: variable(integer(1, 31_536_000), {
    group: 'approvals',
    meaning:
      "requests nobody decides expire after this long (a SideEffectPolicy's `approvalExpirySeconds` and a tool's `sideEffects.approvalExpirySeconds` override)",
    default: 86_400,
  }),
  TOOLROOM_APPROVAL_WAIT_SECONDS: variable(integer(0, 120), {
    group: 'approvals',
    meaning:
      'how long a call needing approval waits for the decision before answering `approval_required` (per call: `_meta["toolroom/waitForApprovalSeconds"]`)',
    default: 0,
  }),
  TOOLROOM_APPROVAL_UNDO_SECONDS: variable(integer(0, 60), {
    group: 'approvals',
    meaning: 'a decision can be undone for this long; a worker runs an approved call only after it (0: decisions are final at once)',
    default: 5,
  }),
  TOOLROOM_APPROVED_CALL_EXPIRY_SECONDS: variable(integer(1, 86_400), {
    group: 'approvals',
    meaning: 'an approved call whose worker died is handed to another after this long',
    default: 600,
  }),
  TOOLROOM_APPROVALS_CRON: variable(cron, {
    group: 'approvals',
    meaning: 'when expired requests are closed and lost hand-offs re-queued',
    default: '* * * * *',
  }),
  TOOLROOM_WEBHOOK_TIMEOUT_MS: variable(integer(100, 300_000), { group: 'approvals', meaning: 'how long a webhook delivery may take', default: 10_000 }),
  TOOLROOM_WEBHOOK_RETRIES: variable(integer(0, 100), { group: 'approvals', meaning: 'retries of a failed delivery, with backoff', default: 6 }),
  TOOLROOM_WEBHOOK_RETRY_DELAY_SECONDS: variable(integer(1, 3600), {
    group: 'approvals',
    meaning: "the first retry's delay, doubling on each (about five minutes in all with the defaults)",
    default: 5,
  }),

  // statistics
  TOOLROOM_STATS_CRON: variable(cron, {
    group: 'statistics',
    meaning: 'when the statistics rollup runs',
    default: '* * * * *',
    shownDefault: '`* * * * *` (every minute)',
  }),
  TOOLROOM_STATS_CACHE_SECONDS: variable(integer(0, 86_400), {
    group: 'statistics',
    meaning: 'how often a web process re-checks the 7-day tool stats it attaches to effective tool sets',
    default: 30,
  }),
  TOOLROOM_STATS_HOURS_PER_BATCH: variable(integer(1, 10_000), {
    group: 'statistics',
    meaning: "hours the rollup recomputes per transaction (bounds a backlog's transactions)",
    default: 12,
  }),
  TOOLROOM_STATS_CALLS_PER_BATCH: variable(integer(1, 100_000_000), {
    group: 'statistics',
    meaning: 'inserted calls the rollup adds per transaction',
    default: 100_000,
  }),
  TOOLROOM_STATS_RECOMPUTE_MIN_CALLS: variable(integer(1, 1_000_000_000), {
    group: 'statistics',
    meaning: 'an hour with this many inserted calls waiting (and a quarter of what it holds) is recomputed instead',
    default: 2000,
  }),
  TOOLROOM_STATS_TX_TIMEOUT_MS: variable(integer(1000, 86_400_000), { group: 'statistics', meaning: 'longest a rollup transaction may run', default: 600_000 }),
  TOOLROOM_STATS_JOB_EXPIRY_SECONDS: variable(integer(1, 86_400), {
    group: 'statistics',
    meaning: 'a rollup whose worker died is run again after this long',
    default: 900,
  }),
  // The call log (docs/design/call-log.md). Never shorter than the statistics window: the 7-day
  // figures are recomputed from the calls, and a day dropped under them would change them.
  TOOLROOM_CALL_RETENTION_DAYS: variable(
    { ...integer(STATS_WINDOW_DAYS, 3650), rule: `a number of days from ${STATS_WINDOW_DAYS} (the statistics window) to 3650` },
    {
      group: 'statistics',
      meaning:
        'recorded calls are kept this many whole UTC days before today; older days are dropped whole by the worker (a day holding a call that waits for approval is kept until it is decided)',
      default: 30,
    },
  ),
  TOOLROOM_CALL_PARTITIONS_CRON: variable(cron, {
    group: 'statistics',
    meaning: "when the worker creates the call log's partitions a week ahead and drops the days past TOOLROOM_CALL_RETENTION_DAYS",
    default: '7 * * * *',
    shownDefault: '`7 * * * *` (hourly)',
  }),

  // MCP authorization (OAuth)
  TOOLROOM_OAUTH_ACCESS_TOKEN_SECONDS: variable(integer(1, 3600), { group: 'oauth', meaning: 'how long an OAuth access token (`tro_…`) lives', default: 600 }),
  TOOLROOM_OAUTH_REFRESH_TOKEN_SECONDS: variable(integer(1, 2_592_000), {
    group: 'oauth',
    meaning: 'how long a refresh token (`trr_…`) lives',
    default: 28_800,
  }),

  // production: metrics, traces, logs, connection pools
  TOOLROOM_METRICS_PORT: variable(port(0), {
    group: 'production',
    meaning: "the process's metrics and probe port (`/metrics`, `/livez`, `/readyz`)",
    shownDefault: 'none (no metrics server); 9464 in the image',
  }),
  TOOLROOM_METRICS_HOST: variable(host, {
    group: 'production',
    meaning: 'the address it binds',
    default: '127.0.0.1',
    shownDefault: '`127.0.0.1`; `0.0.0.0` in the image',
  }),
  TOOLROOM_METRICS_TOKEN: variable(opaqueText, { group: 'production', meaning: 'when set, `/metrics` wants `Authorization: Bearer <token>`', secret: true }),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable(opaqueText, {
    group: 'production',
    meaning:
      'OTLP/HTTP collector for traces (set: tracing on); the other standard `OTEL_*` variables apply (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_BSP_*`, `OTEL_TRACES_SAMPLER`)',
    shownDefault: 'none (tracing off)',
    alsoReadBy: 'the OpenTelemetry exporter',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable(opaqueText, {
    group: 'production',
    meaning: 'the same, for traces only (wins over the one above)',
    shownDefault: 'none',
    alsoReadBy: 'the OpenTelemetry exporter',
  }),
  TOOLROOM_CALL_EXPORT: variable(oneOf(['none', 'otlp']), {
    group: 'production',
    meaning:
      '`otlp`: every recorded call is also sent as an OpenTelemetry log record, as redacted as the stored row, to `OTEL_EXPORTER_OTLP_LOGS_ENDPOINT` (or `OTEL_EXPORTER_OTLP_ENDPOINT`); batching follows `OTEL_BLRP_*` (docs/design/call-log.md, "Export")',
    default: 'none',
  }),
  OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: variable(opaqueText, {
    group: 'production',
    meaning: 'the OTLP/HTTP collector for call logs only (wins over `OTEL_EXPORTER_OTLP_ENDPOINT`)',
    shownDefault: 'none',
    alsoReadBy: 'the OpenTelemetry exporter',
  }),
  OTEL_SERVICE_NAME: variable(opaqueText, {
    group: 'production',
    meaning: 'the service name on spans (the process role is `toolroom.role`)',
    default: 'toolroom',
  }),
  OTEL_SDK_DISABLED: variable(opaqueText, {
    group: 'production',
    meaning: '`true`: no tracing even with an endpoint set',
    shownDefault: 'none',
    alsoReadBy: 'the OpenTelemetry SDK',
  }),
  LOG_FORMAT: variable(oneOf(['json', 'text', 'pretty'], { anyCase: true }), {
    group: 'production',
    meaning: 'JSON lines, or plain lines (`pretty` is `text`)',
    shownDefault: '`json` when stdout is not a terminal, else `text`',
  }),
  LOG_LEVEL: variable(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), {
    group: 'production',
    meaning: 'the least severe level logged',
    default: 'info',
  }),
  TOOLROOM_DB_POOL: variable(integer(1, 1000), { group: 'production', meaning: "connections of each process's Prisma pool", default: 10 }),
  TOOLROOM_GATEWAY_RECORD_POOL: variable(integer(1, 1000), {
    group: 'production',
    meaning: "connections of a gateway's pool for call records and rate counts",
    default: 4,
  }),
  NODE_ENV: variable(opaqueText, {
    group: 'production',
    meaning: 'set by Next.js (`production` under `next start`, and in the image); Next.js inlines it, so the code reads it directly',
    shownDefault: 'as Next.js sets it',
    alsoReadBy: 'Next.js',
  }),
}

export type ConfigName = keyof typeof DECLARATIONS
export const CONFIG_DECLARATIONS: Readonly<Record<ConfigName, Declaration>> = DECLARATIONS

const objectShape = Object.fromEntries(Object.entries(DECLARATIONS).map(([name, d]) => [name, d.schema])) as {
  [K in ConfigName]: (typeof DECLARATIONS)[K]['schema']
}

const ConfigSchema = z.object(objectShape).superRefine((c, ctx) => {
  // Single sign-on needs all three or none: half of it would fail at the first sign-in instead of here.
  const oidc = {
    TOOLROOM_OIDC_ISSUER: c.TOOLROOM_OIDC_ISSUER ?? c.TOOLROOM_OIDC_DISCOVERY_URL,
    TOOLROOM_OIDC_CLIENT_ID: c.TOOLROOM_OIDC_CLIENT_ID,
    TOOLROOM_OIDC_CLIENT_SECRET: c.TOOLROOM_OIDC_CLIENT_SECRET,
  }
  const set = Object.entries(oidc).filter(([, v]) => v !== undefined)
  if (set.length > 0 && set.length < 3)
    for (const [name] of Object.entries(oidc).filter(([, v]) => v === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `must be set too: single sign-on needs TOOLROOM_OIDC_ISSUER (or TOOLROOM_OIDC_DISCOVERY_URL), TOOLROOM_OIDC_CLIENT_ID and TOOLROOM_OIDC_CLIENT_SECRET, or none of them`,
        params: { whole: true },
      })
  // Call export needs somewhere to send to: the exporter would otherwise post to localhost:4318 and drop
  // every record it could not deliver, which is losing the calls quietly.
  if (c.TOOLROOM_CALL_EXPORT === 'otlp' && !c.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT && !c.OTEL_EXPORTER_OTLP_ENDPOINT)
    ctx.addIssue({
      code: 'custom',
      path: ['TOOLROOM_CALL_EXPORT'],
      message: 'is otlp, so OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT must be set too: where the call log records go',
      params: { whole: true },
    })
})

export type Config = z.output<typeof ConfigSchema>

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`the configuration is not valid:\n${problems.map((p) => `  ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

type Env = Record<string, string | undefined>

/** The configuration an environment describes; throws ConfigError naming every variable that breaks its rule. Pure. */
export function parseConfig(env: Env): Config {
  const input = Object.fromEntries(Object.keys(DECLARATIONS).map((name) => [name, env[name]?.trim() ? env[name] : undefined]))
  const result = ConfigSchema.safeParse(input)
  if (result.success) return result.data
  const problems = new Map<string, string>()
  for (const issue of result.error.issues) {
    const name = String(issue.path[0]) as ConfigName
    if (problems.has(name)) continue
    const params = issue.code === 'custom' ? (issue.params as { whole?: boolean; detail?: string } | undefined) : undefined
    const whole = params?.whole === true
    const detail = params?.detail ? `: ${params.detail}` : ''
    problems.set(
      name,
      whole ? `${name} ${issue.message}` : `${name} must be ${DECLARATIONS[name].rule}, got ${shownValue(DECLARATIONS[name], input[name] ?? '')}${detail}`,
    )
  }
  throw new ConfigError([...problems.values()])
}

/** A value as an error message may quote it: secrets by their length only, URLs without their credentials. */
export function shownValue(declaration: Pick<Declaration, 'shown'>, value: string): string {
  if (declaration.shown === 'never') return `a value of ${value.length} characters (a secret: not shown)`
  const text = declaration.shown === 'url-without-credentials' ? withoutCredentials(value) : value
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text)
}

const SECRET_PARAM = /^(password|pass|pwd|token|secret)$/i

/** `postgres://user:***@host/db?password=***`: the password of a URL masked; of text that only looks like one, all before its `@`. */
export function withoutCredentials(value: string): string {
  if (!URL.canParse(value))
    return value.replace(/^([a-z][a-z0-9+.-]*:\/*)?\S*@/i, '$1***@').replace(/([?&](?:password|pass|pwd|token|secret)=)[^&#]*/gi, '$1***')
  const url = new URL(value)
  if (url.password) url.password = '***'
  for (const key of [...url.searchParams.keys()]) if (SECRET_PARAM.test(key)) url.searchParams.set(key, '***')
  return url.href
}

// ---- the process's configuration ----

const STATE = Symbol.for('toolroom.config')
const globals = globalThis as unknown as Record<symbol, { config: Config | null } | undefined>
// On globalThis: Next.js may load this module once per bundle; the environment is parsed once per process.
const state = (globals[STATE] ??= { config: null })

/** This process's configuration, parsed from its environment on first use. Throws ConfigError when a value breaks its rule. */
export function config(): Config {
  return (state.config ??= parseConfig(process.env))
}

/** Parses the environment again: for tests that change process.env, and for nothing else. */
export function reloadConfig(): Config {
  state.config = null
  return config()
}

/**
 * For entry points, first thing: this process's configuration, or, when a value breaks its rule, the
 * problems on stderr and exit code 1, before anything started that would fail later and less clearly.
 */
export function loadConfigOrExit(): Config {
  try {
    return config()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`[toolroom] ${error.message}\n`)
    process.exit(1)
  }
}
