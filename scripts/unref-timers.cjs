// Preload for the prisma-migrate CLI: its Wasm schema engine leaves a 10 s timer pending after
// `migrate deploy` has finished, which would keep the process alive. Long timers must not hold it.
const setTimeoutOriginal = global.setTimeout
global.setTimeout = function (fn, ms, ...args) {
  const timer = setTimeoutOriginal.call(this, fn, ms, ...args)
  if (ms >= 5000) timer?.unref?.()
  return timer
}
