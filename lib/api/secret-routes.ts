// Rotating a Secret's values in place (PUT replaces the whole document; this keeps everything but
// the values, so references and labels cannot drift during a rotation). Admins only, like every
// other change to a Secret (lib/auth/admin-only-kinds.ts).
import { auditContextOf } from '@/lib/audit/audit-actor'
import { adminOnlyError } from '@/lib/auth/admin-only-kinds'
import type { RouteContract } from '@/lib/http/contract'
import { route } from '@/lib/http/route'
import { z } from '@/lib/http/zod'
import { secretValueFields } from '@/lib/manifests/specs/secret'
import { rotateSecret } from '@/lib/resources/rotate-secret'
import { idParams, namespaceQuery, resourceSchema } from './schemas'

export const SECRET_CONTRACTS = {
  rotate: {
    method: 'POST',
    path: '/api/v1/secrets/{id}/rotate',
    operationId: 'rotateSecret',
    tags: ['Secret'],
    access: 'admin',
    accessRule: adminOnlyError('Secret'),
    summary: "Replace a Secret's values in place (same name, labels and references; generation + 1); the answer shows key names only",
    params: idParams,
    query: namespaceQuery,
    body: z.strictObject(secretValueFields).openapi('SecretRotation', { example: { stringData: { token: '<new value>' } } }),
    response: resourceSchema('Secret'),
  },
} satisfies Record<string, RouteContract>

export const secretRoutes = {
  rotate: route(SECRET_CONTRACTS.rotate, async (ctx) => rotateSecret(ctx.params.id, ctx.query.namespace, ctx.body, auditContextOf(ctx))),
}
