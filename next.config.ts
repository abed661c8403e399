import type { NextConfig } from 'next'

const nextConfig: NextConfig = {
  // The API is versioned under /api/v1 and consumed by machines; no trailing-slash redirects.
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  typedRoutes: false,
}

export default nextConfig
