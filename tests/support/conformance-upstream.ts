// The tools the MCP conformance suite's `tools-call-*` and `json-schema-2020-12` server scenarios call
// (@modelcontextprotocol/conformance, each scenario's "Implementation Note"), served by an official
// SDK server as an upstream behind the gateway: the suite then checks what reaches it through the
// gateway (every content type, an error result, progress, a 2020-12 input schema kept as written).
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { listen, type Listening } from './listen'
import { answerStatelessMcp } from './stateless-mcp'

// A 1×1 red PNG and a 44-byte WAV header with no samples: the smallest valid files of their kind.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const WAV = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([36, 0, 0, 0]),
  Buffer.from('WAVEfmt '),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]),
  Buffer.from('data'),
  Buffer.from([0, 0, 0, 0]),
]).toString('base64')

const text = (value: string) => ({ type: 'text' as const, text: value })
const image = { type: 'image' as const, data: PNG, mimeType: 'image/png' }
const resource = {
  type: 'resource' as const,
  resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
}

/** The conformance suite's schema for `json_schema_2020_12_tool`, keyword for keyword. */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
}

const NO_ARGUMENTS = { type: 'object' as const, properties: {} }
// Read-only, so the test fleet's policies let an agent call them without approval.
const READ_ONLY = { readOnlyHint: true, openWorldHint: false }

export const CONFORMANCE_TOOLS: Tool[] = [
  { name: 'test_simple_text', description: 'Returns simple text', inputSchema: NO_ARGUMENTS, annotations: READ_ONLY },
  { name: 'test_image_content', description: 'Returns an image', inputSchema: NO_ARGUMENTS, annotations: READ_ONLY },
  { name: 'test_audio_content', description: 'Returns audio', inputSchema: NO_ARGUMENTS, annotations: READ_ONLY },
  { name: 'test_embedded_resource', description: 'Returns an embedded resource', inputSchema: NO_ARGUMENTS, annotations: READ_ONLY },
  { name: 'test_multiple_content_types', description: 'Returns text, an image and a resource', inputSchema: NO_ARGUMENTS, annotations: READ_ONLY },
  { name: 'test_error_handling', description: 'Always fails with an error result', inputSchema: NO_ARGUMENTS, annotations: READ_ONLY },
  { name: 'test_tool_with_progress', description: 'Reports progress three times', inputSchema: NO_ARGUMENTS, annotations: READ_ONLY },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: JSON_SCHEMA_2020_12 as Tool['inputSchema'],
    annotations: READ_ONLY,
  },
]

const RESULTS: Record<string, CallToolResult> = {
  test_simple_text: { content: [text('This is a simple text response for testing.')] },
  test_image_content: { content: [image] },
  test_audio_content: { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] },
  test_embedded_resource: { content: [resource] },
  test_multiple_content_types: { content: [text('Multiple content types test:'), image, resource] },
  test_error_handling: { isError: true, content: [text('This tool intentionally returns an error for testing')] },
  json_schema_2020_12_tool: { content: [text('ok')] },
}

/** The fixture server, streamable HTTP and stateless, answering with event streams (so progress streams as it comes). */
export function startConformanceUpstream(): Promise<Listening> {
  const build = () => {
    const server = new Server({ name: 'conformance-fixtures', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: CONFORMANCE_TOOLS }))
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name } = request.params
      if (name === 'test_tool_with_progress') {
        const progressToken = request.params._meta?.progressToken
        for (const progress of [0, 50, 100])
          if (progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } })
        return { content: [text('Progress complete')] }
      }
      const result = RESULTS[name]
      if (!result) throw new Error(`Unknown tool: ${name}`)
      return result
    })
    return server
  }
  return listen(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end()
    await answerStatelessMcp(build, req, res, { json: false })
  })
}
