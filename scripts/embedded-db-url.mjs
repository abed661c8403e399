// The address of the embedded PostgreSQL that `npm start` and `npm test` run when DATABASE_URL is unset.
export const EMBEDDED_PG_PORT = Number(process.env.TOOLROOM_EMBEDDED_PG_PORT ?? 55630)
export const EMBEDDED_DATABASE_URL = `postgresql://postgres:postgres@127.0.0.1:${EMBEDDED_PG_PORT}/toolroom`
