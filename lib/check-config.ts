// Imported first by every entry point (the gateway, the worker, the scripts production runs, the web
// app's preload), before any module that reads the configuration on import (lib/db.ts does): a value
// that breaks its rule stops the process here, with the message lib/config.ts writes, instead of as a
// stack trace from whichever module happened to read it first.
import { loadConfigOrExit } from '@/lib/config'

loadConfigOrExit()
