// A route's contract: method, path, access, and the zod schemas of its inputs and answer. The same
// object drives the route wrapper (parsing, auth) and the OpenAPI document, so they cannot disagree.
import type { z } from 'zod'
import type { Access } from '@/lib/auth/access-rules'
import type { FieldError } from '@/lib/errors/app-error'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface TextBody {
  /** Raw text bodies (manifests): the handler gets the string. */
  text: true
  contentTypes: string[]
  description: string
  /** What the `application/json` form holds, for the OpenAPI document (the handler still gets the text). */
  jsonSchema?: z.ZodType
}

/**
 * How a GET answer's validator (its `ETag`) is derived, cheaply and before the answer is computed, so
 * that a matching `If-None-Match` is answered 304 without computing it
 * (docs/design/resource-model.md#conditional-reads).
 */
export interface ConditionalReads {
  /**
   * What the answer is made of, so the tag moves whenever it may have. `registry`: the registry's
   * tables that announce their changes (Tool, LanguageTool, Connector, Unit, Agent, SideEffectPolicy, Policy:
   * the registry epoch) and the 7-day call statistics answers carry (the statistics version).
   */
  from: 'registry'
  /** What else makes two answers at the same address differ: the caller's identity, the public origin (addresses in the answer). */
  varies?: ReadonlyArray<'caller' | 'origin'>
  /** A query parameter that turns the read into a watch (a stream that never is "not modified"): no tag when it is set. */
  exceptWith?: string
}

export interface RouteContract {
  method: HttpMethod
  /** OpenAPI path, e.g. `/api/v1/tools/{id}`. */
  path: string
  operationId: string
  summary: string
  tags: string[]
  access: Access
  /**
   * Why `access` is stricter here than on the route's neighbours (admin-only kinds): a caller without
   * it gets a 403 that names this rule instead of only the missing permission.
   */
  accessRule?: FieldError
  /**
   * An agent's credential (`tra_…`) is accepted too, besides `access`: for the agent's own records,
   * which the route's domain rule confines it to (its config.yaml).
   */
  agentCredentials?: 'own'
  params?: z.ZodObject
  query?: z.ZodObject
  body?: z.ZodType | TextBody
  /**
   * Body fields (`arguments`, `calls[*].args`) whose text is kept in a safe form when PostgreSQL
   * cannot store it as sent (lib/storage/storable-text.ts); such text anywhere else is refused (422).
   */
  safeTextFields?: readonly string[]
  /** Largest body accepted, in bytes; a function when it comes from the configuration (read per request, not at import). */
  maxBodyBytes?: number | (() => number)
  response?: z.ZodType
  /** The schema of this route's error answers, where it says more than the shared Problem does. */
  problem?: z.ZodType
  /** Content type of a non-JSON answer (e.g. `application/yaml`). */
  responseContentType?: string
  /** The JSON answer is also given as YAML to a client whose `Accept` prefers `application/yaml`. */
  yamlAnswer?: true
  successStatus?: 200 | 201 | 202 | 204
  /** GET answers with an `ETag`, and 304 Not Modified to a matching `If-None-Match`. */
  etag?: ConditionalReads
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

export function isTextBody(body: RouteContract['body']): body is TextBody {
  return typeof body === 'object' && body !== null && 'text' in body
}
