// A V8 CPU profile of a process Node.js will not pass --cpu-prof to (NODE_OPTIONS refuses it), loaded
// with NODE_OPTIONS=--import: profiles from start to exit and writes a .cpuprofile into
// TOOLROOM_CPU_PROFILE_DIR (bench:watch's web process, BENCH_PROFILE_DIR).
import fs from 'node:fs'
import path from 'node:path'
import inspector from 'node:inspector'

const dir = process.env.TOOLROOM_CPU_PROFILE_DIR
if (dir) {
  const session = new inspector.Session()
  session.connect()
  session.post('Profiler.enable')
  session.post('Profiler.start')
  // A session of the process's own thread answers synchronously: the profile is written before exit.
  process.once('exit', () => {
    session.post('Profiler.stop', (error, answer) => {
      if (!error) fs.writeFileSync(path.join(dir, `web.${process.pid}.cpuprofile`), JSON.stringify(answer.profile))
    })
  })
}
