export const WARM_DATABASE_CLIENT: 'toolroom:warm-database-client'
