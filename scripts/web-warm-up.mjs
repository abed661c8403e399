// What `npm start` (scripts/start.mjs) sends the web server over their IPC channel once it has printed
// ready: load the database client now, while nobody waits (lib/health/warm-database-client.ts).
export const WARM_DATABASE_CLIENT = 'toolroom:warm-database-client'
