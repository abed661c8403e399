// The benchmark's upstream: a local SDK MCP server (streamable HTTP, stateless, JSON answers) with
// one read-only tool. Prints its URL. BENCH_UPSTREAM_AUTH=bearer takes only `Bearer bench-static-token`;
// =oauth2 also runs an authorization server (oidc-provider, client credentials) and takes only the
// tokens it issued (a map lookup once a token was seen, so the upstream's own cost stays flat), and
// prints the issuer; =token_exchange also issues a person's JWT (printed) and exchanges it (RFC 8693).
import http from 'node:http'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

function build() {
  const server = new McpServer({ name: 'bench-upstream', version: '1.0.0' })
  server.registerTool(
    'lookup',
    { description: 'Looks a key up', inputSchema: { key: z.string() }, annotations: { readOnlyHint: true, openWorldHint: false } },
    async ({ key }) => ({
      content: [{ type: 'text', text: `value of ${key}` }],
      structuredContent: { key, value: `value of ${key}` },
    }),
  )
  return server
}

const AUTH = process.env.BENCH_UPSTREAM_AUTH ?? 'none'
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange'
let provider = null
if (AUTH === 'oauth2' || AUTH === 'token_exchange') {
  const { default: Provider } = await import('oidc-provider')
  const idp = http.createServer()
  await new Promise((resolve) => idp.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${idp.address().port}`
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'bench',
        client_secret: 'bench-client-secret',
        grant_types: AUTH === 'token_exchange' ? ['client_credentials', TOKEN_EXCHANGE] : ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
    ],
    scopes: ['lookup'],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: { enabled: true, getResourceServerInfo: () => ({ scope: 'lookup', accessTokenFormat: 'opaque', accessTokenTTL: 3600 }) },
    },
    ttl: { ClientCredentials: () => 3600 },
  })
  idp.on('request', provider.callback())
  console.log(`issuer ${issuer}`)
  if (AUTH === 'token_exchange') {
    // The organisation's IdP too: a person's JWT for Toolroom (printed), and RFC 8693 token exchange
    // (oidc-provider's grant type extension API) of that JWT for an opaque token the upstream takes.
    const { createRemoteJWKSet, jwtVerify } = await import('jose')
    const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`))
    provider.registerGrantType(
      TOKEN_EXCHANGE,
      async (ctx) => {
        const { payload } = await jwtVerify(ctx.oidc.params.subject_token, keys, { issuer })
        const audience = ctx.oidc.params.resource
        const token = new provider.AccessToken({
          accountId: payload.sub,
          client: ctx.oidc.client,
          resourceServer: { audience, identifier: () => audience, scope: 'lookup', accessTokenFormat: 'opaque' },
          expiresIn: 3600,
          scope: 'lookup',
          gty: 'token-exchange',
        })
        ctx.body = {
          access_token: await token.save(),
          issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          token_type: 'Bearer',
          expires_in: 3600,
        }
      },
      ['subject_token', 'subject_token_type', 'requested_token_type', 'audience', 'resource', 'scope'],
    )
    const client = await provider.Client.find('bench')
    const resourceServer = {
      audience: 'toolroom-bench',
      identifier: () => 'toolroom-bench',
      scope: '',
      accessTokenFormat: 'jwt',
      jwt: { sign: { alg: 'RS256' } },
    }
    const person = new provider.AccessToken({ accountId: 'bench-person', client, resourceServer, expiresIn: 3600, gty: 'authorization_code' })
    console.log(`person ${await person.save()}`)
  }
}
const known = new Map()
async function authorized(header) {
  if (AUTH === 'none') return true
  // The static token is also how the benchmark calls the upstream directly, whatever the mode.
  if (header === 'Bearer bench-static-token') return true
  if (AUTH === 'bearer') return false
  const token = /^Bearer (.+)$/.exec(header ?? '')?.[1]
  if (!token) return false
  const seen = known.get(token)
  if (seen) return seen > Date.now()
  const found = (await provider.ClientCredentials.find(token)) ?? (AUTH === 'token_exchange' ? await provider.AccessToken.find(token) : undefined)
  if (!found || found.isExpired) return false
  known.set(token, found.exp * 1000)
  return true
}

const server = http.createServer(async (req, res) => {
  if (req.url === '/health') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')
  if (req.method !== 'POST') return void res.writeHead(405).end()
  if (!(await authorized(req.headers.authorization))) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}')
  const chunks = []
  for await (const c of req) chunks.push(c)
  const mcp = build()
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  res.on('close', () => {
    void transport.close()
    void mcp.close()
  })
  await mcp.connect(transport)
  await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8')))
})
server.keepAliveTimeout = 65_000
server.listen(Number(process.env.UPSTREAM_PORT ?? 0), '127.0.0.1', () => console.log(`upstream http://127.0.0.1:${server.address().port}/mcp`))
