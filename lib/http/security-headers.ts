// Browser-side defences: the content security policy for pages (with the per-request nonce from
// proxy.ts). The fixed headers on every answer are in next.config.mjs.

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
