// Browser-side defences for every answer: the content security policy for pages (with the
// per-request nonce from proxy.ts), and fixed headers for everything else.

/**
 * Scripts only from us and with the request's nonce; styles may be inline (React style attributes),
 * which cannot run code. No framing, no plugins, forms post only to us.
 */
export function contentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? ' ws:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** Headers on every response (pages, API, assets). */
export const STATIC_SECURITY_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
]

/** API answers are data, never documents to render. */
export const API_SECURITY_HEADERS = [{ key: 'Content-Security-Policy', value: "default-src 'none'; frame-ancestors 'none'" }]
