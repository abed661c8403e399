// Plain JavaScript, not TypeScript: `next start` loads a next.config.ts by compiling it with SWC, whose
// native module it loads for that alone, every start (about 0.1 s of CPU before the first answer,
// BENCHMARKS.md, "Start and stop"). The headers that vary per request (the content security policy
// of pages, with its nonce) come from proxy.ts and lib/http/security-headers.ts.

/** Headers on every response (pages, API, assets). */
const STATIC_SECURITY_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
]

/** API answers are data, never documents to render. */
const API_SECURITY_HEADERS = [{ key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" }]

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The API is versioned under /api/v1 and consumed by machines; no trailing-slash redirects.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // Next.js loads every route's modules when `next start` starts (about 18 MB of server chunks here):
  // a second of CPU that the first request (the start script's health check, a readiness probe) then
  // waits behind. Loaded when first asked instead, the first health answer comes 0.8–1 s sooner and
  // the first view of a page pays its own modules once (BENCHMARKS.md, "Start and stop").
  experimental: { preloadEntriesOnStart: false },
  typedRoutes: false,
  // `npm test` type-checks the whole tree with tsc (a superset of what the build checks) beside the
  // build, and says so with this variable; every other build checks types itself.
  typescript: { ignoreBuildErrors: process.env.TOOLROOM_BUILD_TYPECHECKED === '1' },
  // Pages get their content security policy (with a nonce) from proxy.ts.
  async headers() {
    return [
      { source: '/:path*', headers: STATIC_SECURITY_HEADERS },
      { source: '/api/:path*', headers: API_SECURITY_HEADERS },
    ]
  },
}

export default nextConfig
