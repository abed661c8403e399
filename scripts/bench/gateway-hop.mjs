// The floor under bench:gateway's rows: one hop and nothing else. A Node.js HTTP server that reads
// each request whole, sends it on to the upstream (UPSTREAM_URL) over kept-alive connections, reads
// the answer whole and sends it back, as any proxy that looks at what it forwards must. With
// HOP_DATABASE_URL it also commits one row per call (the answer, one INSERT, synchronous commit,
// from a pool of 20) before answering: "recorded before answered" and nothing more. No MCP, no
// JSON, no checks: what the gateway costs above this is its own work. Prints its URL.
import http from 'node:http'
import pg from 'pg'

const upstream = new URL(process.env.UPSTREAM_URL)
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
const pool = process.env.HOP_DATABASE_URL ? new pg.Pool({ connectionString: process.env.HOP_DATABASE_URL, max: 20 }) : null
if (pool) await pool.query('CREATE TABLE IF NOT EXISTS bench_hop (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), answer text NOT NULL)')

const record = (answer) => pool.query({ name: 'record', text: 'INSERT INTO bench_hop (answer) VALUES ($1)', values: [answer.toString('utf8')] })

const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const body = Buffer.concat(chunks)
    const headers = { ...req.headers, host: upstream.host, 'content-length': String(body.length) }
    delete headers.connection
    const forwarded = http.request(upstream, { method: req.method, agent, headers }, (answer) => {
      const parts = []
      answer.on('data', (c) => parts.push(c))
      answer.on('end', async () => {
        const whole = Buffer.concat(parts)
        try {
          if (pool) await record(whole)
          res
            .writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json', 'content-length': whole.length })
            .end(whole)
        } catch (error) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
        }
      })
    })
    forwarded.on('error', (error) => res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error)))
    forwarded.end(body)
  })
})
server.listen(0, '127.0.0.1', () => console.log(`hop http://127.0.0.1:${server.address().port}`))
