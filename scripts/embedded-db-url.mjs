// The embedded PostgreSQL that `npm start` and `npm test` run when DATABASE_URL is unset. Its port is
// TOOLROOM_EMBEDDED_PG_PORT (declared in lib/config.ts, with this default); the Prisma CLI's configs
// (prisma/env.ts), which cannot load lib/config.ts, fall back to this address when run by hand.
export const DEFAULT_EMBEDDED_PG_PORT = 55630
export const EMBEDDED_DATABASE_URL = `postgresql://postgres:postgres@127.0.0.1:${Number(process.env.TOOLROOM_EMBEDDED_PG_PORT || DEFAULT_EMBEDDED_PG_PORT)}/toolroom`
