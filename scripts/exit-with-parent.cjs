// Preload for the long-running children of scripts/start.mjs: they share an IPC channel with it, and
// when it dies (even by SIGKILL) the channel closes and the child ends itself instead of lingering.
if (process.send) {
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'))
  process.channel?.unref()
}
