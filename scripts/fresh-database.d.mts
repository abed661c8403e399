export function withDatabase(url: string, database: string): string
export function freshDatabase(adminUrl: string, name: string): Promise<string>
export function migrateDatabase(url: string): Promise<void>
export function benchDatabase(name: string): Promise<{ url: string; stop: () => Promise<void> }>
export function copyOfDatabase(templateUrl: string, name: string): Promise<string>
export function dropDatabasesNamed(adminUrl: string, prefix: string): Promise<void>
