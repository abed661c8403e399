export function schemaSql(options: { from: string | null; to: string; databaseUrl: string }): string
