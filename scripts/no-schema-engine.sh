#!/bin/sh
echo "Prisma's native schema engine is not available offline; migrations run through 'npm run db:deploy' (scripts/migrate.ts)." >&2
exit 1
