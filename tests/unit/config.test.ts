// lib/config.ts: every variable's rule, default and message; the README's tables generated from it;
// and no product code reading the environment behind its back.
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CONFIG_DECLARATIONS, type ConfigName, config, ConfigError, parseConfig, reloadConfig, shownValue, withoutCredentials } from '@/lib/config'
import { README_PATH, withConfigTables } from '@/scripts/config-tables.mjs'

const KEY = Buffer.alloc(32, 7).toString('base64')
const names = Object.keys(CONFIG_DECLARATIONS) as ConfigName[]

/** The message parseConfig throws for `env`, or '' when it parses. */
function problem(env: Record<string, string>): string {
  try {
    parseConfig(env)
    return ''
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
}

describe('defaults', () => {
  it('fill every variable left unset, and an empty or blank value counts as unset', () => {
    for (const env of [{}, Object.fromEntries(names.map((n) => [n, ''])), Object.fromEntries(names.map((n) => [n, '  ']))]) {
      const c = parseConfig(env)
      expect(c).toMatchObject({
        PORT: 3000,
        HOST: '127.0.0.1',
        TOOLROOM_DATA_DIR: '.data',
        TOOLROOM_GATEWAY_FRONT: true,
        TOOLROOM_ENABLE_OS_TOOLS: false,
        TOOLROOM_DB_POOL: 10,
        TOOLROOM_IDEMPOTENCY_WINDOW_SECONDS: 86_400,
        TOOLROOM_DISCOVERY_CRON: '*/15 * * * *',
        TOOLROOM_PINNED_NAMESPACES: [],
        TOOLROOM_SECRET_KEYS_PREVIOUS: [],
        TOOLROOM_OIDC_SCOPES: 'openid email profile',
        LOG_LEVEL: 'info',
        OTEL_SERVICE_NAME: 'toolroom',
      })
      expect(c.DATABASE_URL).toBeUndefined()
      expect(c.GATEWAY_PORT).toBeUndefined()
      expect(c.TOOLROOM_EMBEDDED_PG_PORT).toBeUndefined()
      expect(c.TOOLROOM_TRUSTED_PROXIES).toBeUndefined()
      expect(c.TOOLROOM_OUTBOUND_ALLOW.describe()).toBe('loopback,private')
    }
  })

  it('lie within their own bounds, and every variable says what it means and what it takes', () => {
    const defaults = parseConfig({}) as Record<string, unknown>
    for (const name of names) {
      const d = CONFIG_DECLARATIONS[name]
      expect(d.meaning.length, name).toBeGreaterThan(5)
      expect(d.rule.length, name).toBeGreaterThan(3)
      expect(d.defaultText.length, name).toBeGreaterThan(0)
      const value = defaults[name]
      if (d.bounds && value !== undefined) {
        expect(value, name).toBeGreaterThanOrEqual(d.bounds.min)
        expect(value, name).toBeLessThanOrEqual(d.bounds.max)
      }
    }
  })

  it('reads values as typed, trimmed where that is the rule', () => {
    const c = parseConfig({
      PORT: ' 8080 ',
      TOOLROOM_SESSION_HOURS: '0.5',
      TOOLROOM_ENABLE_OS_TOOLS: '1',
      TOOLROOM_GATEWAY_FRONT: '0',
      TOOLROOM_PINNED_NAMESPACES: 'payments, prod,,',
      TOOLROOM_GATEWAY_ALLOWED_ORIGINS: 'https://Inspector.example.com/, http://localhost:6274',
      TOOLROOM_TRUSTED_PROXIES: '10.0.0.0/8, ::1',
      TOOLROOM_SECRET_KEY: KEY,
      TOOLROOM_SECRET_KEYS_PREVIOUS: ` ${KEY} ,`,
      LOG_FORMAT: 'TEXT',
      DATABASE_URL: 'postgresql://toolroom:pw@db.internal:5432/toolroom?sslmode=require',
    })
    expect(c).toMatchObject({ PORT: 8080, TOOLROOM_SESSION_HOURS: 0.5, TOOLROOM_ENABLE_OS_TOOLS: true, TOOLROOM_GATEWAY_FRONT: false, LOG_FORMAT: 'text' })
    expect(c.TOOLROOM_PINNED_NAMESPACES).toEqual(['payments', 'prod'])
    expect(c.TOOLROOM_GATEWAY_ALLOWED_ORIGINS).toEqual(['https://inspector.example.com', 'http://localhost:6274'])
    expect(c.TOOLROOM_TRUSTED_PROXIES?.check('10.1.2.3', 'ipv4')).toBe(true)
    expect(c.TOOLROOM_TRUSTED_PROXIES?.check('11.1.2.3', 'ipv4')).toBe(false)
    expect(c.TOOLROOM_SECRET_KEYS_PREVIOUS).toEqual([KEY])
  })
})

describe('the call retention', () => {
  it('defaults to 30 days and is never shorter than the 7-day statistics window', () => {
    expect(parseConfig({}).TOOLROOM_CALL_RETENTION_DAYS).toBe(30)
    expect(parseConfig({ TOOLROOM_CALL_RETENTION_DAYS: '7' }).TOOLROOM_CALL_RETENTION_DAYS).toBe(7)
    for (const value of ['6', '0', '-30', '7.5', 'a month'])
      expect(problem({ TOOLROOM_CALL_RETENTION_DAYS: value })).toContain(
        `TOOLROOM_CALL_RETENTION_DAYS must be a number of days from 7 (the statistics window) to 3650, got "${value}"`,
      )
  })
})

describe('a value that breaks its rule', () => {
  it('is named with the rule and the value', () => {
    expect(problem({ GATEWAY_PORT: 'abc' })).toContain('GATEWAY_PORT must be an integer from 0 to 65535 (0: any free port), got "abc"')
    expect(problem({ PORT: '70000' })).toContain('PORT must be an integer from 1 to 65535, got "70000"')
    expect(problem({ TOOLROOM_DB_POOL: '1e3' })).toContain('TOOLROOM_DB_POOL must be an integer from 1 to 1000, got "1e3"')
    expect(problem({ TOOLROOM_SESSION_HOURS: 'forever' })).toContain('TOOLROOM_SESSION_HOURS must be a number from 0.01 to 8760, got "forever"')
    expect(problem({ TOOLROOM_ENABLE_OS_TOOLS: 'true' })).toContain('TOOLROOM_ENABLE_OS_TOOLS must be `1` (on) or `0` (off), got "true"')
    expect(problem({ LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL must be one of `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`, got "loud"')
    expect(problem({ TOOLROOM_PUBLIC_URL: 'tools.example.com' })).toContain('TOOLROOM_PUBLIC_URL must be an `http` or `https` URL, got "tools.example.com"')
    expect(problem({ TOOLROOM_DISCOVERY_CRON: 'every 15 minutes' })).toContain(
      'TOOLROOM_DISCOVERY_CRON must be a cron expression (5 fields: minute hour day month weekday), got "every 15 minutes"',
    )
    expect(problem({ TOOLROOM_GATEWAY_ALLOWED_ORIGINS: 'https://ok.example, nope' })).toContain(
      'TOOLROOM_GATEWAY_ALLOWED_ORIGINS must be a comma list of `http` or `https` origins, got "https://ok.example, nope": "nope" is not an origin',
    )
  })

  it('says why a list entry is refused', () => {
    expect(problem({ TOOLROOM_OUTBOUND_ALLOW: 'private, 10.0.0.0/99' })).toContain(
      'TOOLROOM_OUTBOUND_ALLOW must be a comma list of `loopback`, `private`, `public`, IP addresses, CIDRs and host names (`*.svc.cluster.local`), got "private, 10.0.0.0/99": bad prefix in "10.0.0.0/99"',
    )
    expect(problem({ TOOLROOM_TRUSTED_PROXIES: '10.0.0.0/8, proxy.internal' })).toContain('"proxy.internal" is not an IP address or CIDR')
  })

  it('is reported with every other one at once, each on its own line', () => {
    const message = problem({ PORT: 'x', TOOLROOM_WORKERS: '-1', LOG_FORMAT: 'xml' })
    expect(message.split('\n')).toEqual([
      'the configuration is not valid:',
      '  PORT must be an integer from 1 to 65535, got "x"',
      '  TOOLROOM_WORKERS must be an integer from 0 to 64, got "-1"',
      '  LOG_FORMAT must be one of `json`, `text`, `pretty` (any case), got "xml"',
    ])
  })

  it('is quoted short: a huge value does not flood the log', () => {
    const message = problem({ TOOLROOM_DATA_DIR: 'fine', TOOLROOM_WORKER_CONCURRENCY: '9'.repeat(10_000) })
    expect(message.length).toBeLessThan(300)
    expect(message).toContain(`got "${'9'.repeat(100)}…"`)
  })

  it('call export to OTLP without an endpoint is refused, naming where the records would go', () => {
    expect(problem({ TOOLROOM_CALL_EXPORT: 'otlp' })).toContain(
      'TOOLROOM_CALL_EXPORT is otlp, so OTEL_EXPORTER_OTLP_LOGS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT must be set too',
    )
    expect(problem({ TOOLROOM_CALL_EXPORT: 'kafka' })).toContain('TOOLROOM_CALL_EXPORT must be')
    expect(parseConfig({ TOOLROOM_CALL_EXPORT: 'otlp', OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://collector:4318/v1/logs' }).TOOLROOM_CALL_EXPORT).toBe('otlp')
    expect(parseConfig({}).TOOLROOM_CALL_EXPORT).toBe('none')
  })

  it('single sign-on set by halves names what is missing', () => {
    const message = problem({ TOOLROOM_OIDC_ISSUER: 'https://login.example.com', TOOLROOM_OIDC_CLIENT_SECRET: 's3cret-value' })
    expect(message).toContain('TOOLROOM_OIDC_CLIENT_ID must be set too: single sign-on needs')
    expect(message).not.toContain('TOOLROOM_OIDC_CLIENT_SECRET must')
    expect(message).not.toContain('s3cret-value')
    expect(
      problem({
        TOOLROOM_OIDC_DISCOVERY_URL: 'https://login.example.com/.well-known/openid-configuration',
        TOOLROOM_OIDC_CLIENT_ID: 'id',
        TOOLROOM_OIDC_CLIENT_SECRET: 'x',
      }),
    ).toBe('')
  })
})

describe('secrets in messages', () => {
  it('are never shown, only their length', () => {
    const message = problem({ TOOLROOM_SECRET_KEY: 'hunter2-hunter2', TOOLROOM_SECRET_KEYS_PREVIOUS: `${KEY},hunter3`, TOOLROOM_ADMIN_TOKEN: 'trk_hunter4' })
    expect(message).toContain('TOOLROOM_SECRET_KEY must be 32 random bytes, base64-encoded, got a value of 15 characters (a secret: not shown)')
    expect(message).toContain(
      'TOOLROOM_SECRET_KEYS_PREVIOUS must be a comma list of 32-byte keys, base64-encoded, got a value of 52 characters (a secret: not shown): key 2 of 2 is not 32 bytes in base64',
    )
    expect(message).toContain('TOOLROOM_ADMIN_TOKEN must be `trk_` followed by 32 to 200 letters, digits, `-` or `_`')
    for (const leaked of ['hunter2', 'hunter3', 'hunter4', KEY]) expect(message).not.toContain(leaked)
  })

  it('of every secret variable are masked, whatever the value', () => {
    const secrets = names.filter((n) => CONFIG_DECLARATIONS[n].secret)
    expect(secrets).toEqual(
      expect.arrayContaining([
        'TOOLROOM_SECRET_KEY',
        'TOOLROOM_SECRET_KEYS_PREVIOUS',
        'TOOLROOM_ADMIN_TOKEN',
        'TOOLROOM_OIDC_CLIENT_SECRET',
        'BETTER_AUTH_SECRET',
        'TOOLROOM_METRICS_TOKEN',
      ]),
    )
    fc.assert(
      fc.property(
        fc.constantFrom(...secrets),
        fc.string({ minLength: 1 }),
        (name, value) => !shownValue(CONFIG_DECLARATIONS[name], `s3cr3t${value}`).includes('s3cr3t'),
      ),
    )
  })

  it('in URLs: the password of DATABASE_URL and of any other URL is masked', () => {
    const message = problem({ DATABASE_URL: 'mysql://toolroom:hunter2@db.internal/toolroom', TOOLROOM_GATEWAY_UPSTREAM: 'ftp://me:hunter3@web' })
    expect(message).toContain('DATABASE_URL must be a `postgres://` or `postgresql://` URL, got "mysql://toolroom:***@db.internal/toolroom"')
    expect(message).toContain('got "ftp://me:***@web/"')
    expect(message).not.toMatch(/hunter[23]/)
    expect(withoutCredentials('postgres//toolroom:hunter2@db/x?password=hunter3&sslmode=require')).not.toMatch(/hunter[23]/)
    expect(withoutCredentials('postgresql://db/x?sslmode=require&password=hunter3')).toBe('postgresql://db/x?sslmode=require&password=***')
  })
})

describe('numeric variables, against random text', () => {
  const numeric = names.filter((n) => CONFIG_DECLARATIONS[n].bounds)
  const text = fc.oneof(
    fc.string(),
    fc.stringMatching(/^[\s+-]?\d{0,20}(\.\d{0,20})?([eE][+-]?\d{1,4})?\s?$/),
    fc.constantFrom('NaN', 'Infinity', '-Infinity', '0x10', '0b1', '1_000', '١٢', '1,5', '.5', '5.', '-0', '+1', '00', ' 7 ', '\t8', '9\n'),
    fc.double().map(String),
    fc.integer({ min: -1, max: 2 ** 31 }).map(String),
  )

  it('never come out NaN, and never out of bounds: a value is taken within its bounds or refused naming the variable', () => {
    expect(numeric.length).toBeGreaterThan(40)
    fc.assert(
      fc.property(fc.constantFrom(...numeric), text, (name, raw) => {
        const { bounds, rule } = CONFIG_DECLARATIONS[name]
        let value: unknown
        try {
          value = (parseConfig({ [name]: raw }) as Record<string, unknown>)[name]
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError)
          expect((error as Error).message).toContain(`${name} must be ${rule}, got `)
          return
        }
        if (!raw.trim()) return // unset: the default, checked above
        expect(typeof value).toBe('number')
        expect(Number.isNaN(value)).toBe(false)
        expect(value as number).toBeGreaterThanOrEqual(bounds!.min)
        expect(value as number).toBeLessThanOrEqual(bounds!.max)
        expect(value).toBe(Number(raw))
        if (rule.startsWith('an integer')) expect(Number.isInteger(value)).toBe(true)
      }),
      { numRuns: 5000 },
    )
    // 5,000 whole-config parses: seconds of CPU on a busy machine, which is no defect.
  }, 60_000)

  it('take every value within their bounds', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...numeric)
          .chain((name) =>
            fc.tuple(
              fc.constant(name),
              fc.integer({ min: Math.ceil(CONFIG_DECLARATIONS[name].bounds!.min), max: Math.floor(CONFIG_DECLARATIONS[name].bounds!.max) }),
            ),
          ),
        ([name, n]) => (parseConfig({ [name]: String(n) }) as Record<string, unknown>)[name] === n,
      ),
    )
    for (const name of numeric) {
      const { min, max } = CONFIG_DECLARATIONS[name].bounds!
      expect(problem({ [name]: String(min) }), name).toBe('')
      expect(problem({ [name]: String(max) }), name).toBe('')
      if (min > 0) expect(problem({ [name]: String(min - 1) }), name).toContain(`${name} must be`)
      expect(problem({ [name]: String(max + 1) }), name).toContain(`${name} must be`)
    }
  })
})

describe('the process configuration', () => {
  it('is parsed once, and again only when asked', () => {
    expect(config()).toBe(config())
    const before = config()
    expect(reloadConfig()).not.toBe(before)
  })
})

describe("README.md's variable tables", () => {
  it('are what `npm run docs:config` writes from lib/config.ts', () => {
    const readme = fs.readFileSync(README_PATH, 'utf8')
    expect(withConfigTables(readme) === readme, `${README_PATH}'s variable tables are out of date: run npm run docs:config`).toBe(true)
  })

  it('list every variable once', () => {
    const readme = fs.readFileSync(README_PATH, 'utf8')
    for (const name of names) expect(readme.split(`\n| \`${name}\` |`).length - 1, name).toBe(1)
  })
})

describe('the environment', () => {
  // What production runs (the web app, gateway, workers, the scripts in dist/, `npm start`) reads its
  // settings from lib/config.ts only. Writing variables for child processes is fine; reading them is
  // not. NODE_ENV and NEXT_RUNTIME are Next.js's, inlined at build time, so they are read as written.
  const PRODUCT = [
    'lib',
    'app',
    'components',
    'workers',
    'instrumentation.ts',
    'proxy.ts',
    'scripts/gateway.ts',
    'scripts/web-preload.ts',
    'scripts/seed-demo.ts',
    'scripts/ensure-admin-token.ts',
    'scripts/prepare-data.ts',
    'scripts/migrate.ts',
    'scripts/steps',
    'scripts/create-admin.ts',
    'scripts/reencrypt-secrets.ts',
    'scripts/stats-rollup.ts',
    'scripts/start.mjs',
    'scripts/start-helpers.mjs',
    'scripts/supervisor.mjs',
  ]
  const files = (entry: string): string[] =>
    fs.statSync(entry).isDirectory()
      ? fs.readdirSync(entry).flatMap((e) => (path.join(entry, e) === path.join('lib', 'generated') ? [] : files(path.join(entry, e))))
      : /\.(ts|tsx|mjs|mts)$/.test(entry)
        ? [entry]
        : []

  it('is read only by lib/config.ts in product code', () => {
    const reads: string[] = []
    for (const file of PRODUCT.flatMap(files)) {
      if (file === path.join('lib', 'config.ts')) continue
      const source = fs.readFileSync(file, 'utf8')
      for (const m of source.matchAll(/process\.env(\.\w+\b|\[[^\]]+\])(?!\s*(=[^=]|\?\?=))/g)) {
        if (m[1] === '.NODE_ENV' || m[1] === '.NEXT_RUNTIME') continue
        reads.push(`${file}: process.env${m[1]}`)
      }
    }
    expect(reads).toEqual([])
  })
})
