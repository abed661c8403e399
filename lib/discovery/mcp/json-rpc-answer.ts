// Reading JSON-RPC answers from HTTP bodies (JSON or SSE frames), for the compliance probes and the
// stateless-POST discovery fallback.
import type { ProbeAnswer } from './compliance-report'
import { excerptOf, isObject } from '@/lib/json/unknown-values'

export interface JsonRpcMessage {
  jsonrpc?: unknown
  id?: unknown
  method?: unknown
  result?: unknown
  error?: { code?: unknown; message?: unknown; data?: unknown }
}

/** The JSON-RPC answer to request `id` in a parsed body (one message or a batch), if any. */
export function findJsonRpcAnswer(parsed: unknown, id: string | number): JsonRpcMessage | undefined {
  const messages = Array.isArray(parsed) ? parsed : [parsed]
  return messages.find((m): m is JsonRpcMessage => isObject(m) && m.id === id && ('result' in m || 'error' in m))
}

/** Events of a complete SSE body: the `data:` lines of each event, joined. */
export function sseDataFrames(text: string): string[] {
  const frames: string[] = []
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n\n+/)) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
    if (data.length) frames.push(data.join('\n'))
  }
  return frames
}

export interface JsonRpcHttpAnswer {
  status: number
  headers: Headers
  /** The answer to the request, when the body held one (JSON or an SSE `data:` frame). */
  message?: JsonRpcMessage
  /** The start of the body, for error messages. */
  excerpt: string
}

/**
 * Reads an HTTP answer to a JSON-RPC request: a JSON body, or an SSE stream read until the frame
 * that answers `id` (the stream is then cancelled, so servers that keep it open do not hold us).
 */
export async function readJsonRpcAnswer(response: Response, id: string | number): Promise<JsonRpcHttpAnswer> {
  const contentType = response.headers.get('content-type') ?? ''
  const base = { status: response.status, headers: response.headers }
  if (!response.body) return { ...base, excerpt: '' }
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const sse = /text\/event-stream/i.test(contentType)
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
      if (sse) {
        const complete = text.replace(/\r\n?/g, '\n')
        const cut = complete.lastIndexOf('\n\n')
        if (cut !== -1) {
          const message = answerInFrames(sseDataFrames(complete.slice(0, cut)), id)
          if (message) return { ...base, message, excerpt: excerptOf(text) }
        }
      }
    }
    text += decoder.decode()
  } finally {
    reader.cancel().catch(() => {})
  }
  let message: JsonRpcMessage | undefined
  if (sse || /^\s*(event|data|id|retry|:)/.test(text)) message = answerInFrames(sseDataFrames(text), id)
  if (!message) {
    try {
      message = findJsonRpcAnswer(JSON.parse(text), id)
    } catch {
      // not JSON
    }
  }
  return { ...base, message, excerpt: excerptOf(text) }
}

function answerInFrames(frames: string[], id: string | number): JsonRpcMessage | undefined {
  for (const frame of frames) {
    try {
      const found = findJsonRpcAnswer(JSON.parse(frame), id)
      if (found) return found
    } catch {
      // a frame that is not JSON (keep-alive, comment)
    }
  }
  return undefined
}

/** A probe answer from an HTTP answer to a JSON-RPC request. */
export function probeAnswerFromHttp(answer: JsonRpcHttpAnswer): ProbeAnswer {
  const { status, message } = answer
  if (message && 'error' in message && message.error !== undefined) {
    const error = isObject(message.error) ? message.error : {}
    return {
      kind: 'jsonrpc-error',
      httpStatus: status,
      code: typeof error.code === 'number' ? error.code : NaN,
      message: typeof error.message === 'string' ? error.message : '',
    }
  }
  if (message && 'result' in message) {
    return { kind: 'result', httpStatus: status, isError: isObject(message.result) && message.result.isError === true }
  }
  if (status < 200 || status >= 300) return { kind: 'http-error', httpStatus: status, body: answer.excerpt }
  return { kind: 'invalid', httpStatus: status, detail: answer.excerpt ? `body: ${answer.excerpt}` : 'empty body' }
}
