// Preload for the long-running children of scripts/start.mjs: they share an IPC channel with it, and
// when it dies (even by SIGKILL) the channel closes and the child ends itself instead of lingering.
// Only in the process the supervisor spawned: Next.js passes preloads on to its own children (through
// NODE_OPTIONS) and talks to them over IPC channels of its own, which are none of this file's business.
if (process.send && process.env.TOOLROOM_SUPERVISED === '1') {
  delete process.env.TOOLROOM_SUPERVISED
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'))
  process.channel?.unref()
}
