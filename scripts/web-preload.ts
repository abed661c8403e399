// Loaded before Next.js itself in production (`node -r ./dist/web-preload.cjs node_modules/next/dist/bin/next start`,
// the image's `web` command): Next.js prints its banner before instrumentation.ts runs, so the
// configuration is checked (a bad value stops the process before Next.js starts), and the log format
// and the masking of secret values are set up here first, and every line the web process writes is a
// JSON line off a terminal (lib/observability/logger.ts).
import '@/lib/check-config'
import { bridgeConsoleToLogger, setLogRole } from '@/lib/observability/logger'
import { installLogMasking } from '@/lib/secrets/mask-secret-values'

installLogMasking()
setLogRole('web')
bridgeConsoleToLogger()
