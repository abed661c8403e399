// A resource's metadata as API answers carry it: declared here, beside ResourceView, so the domain
// does not reach into lib/api for its own shape; the OpenAPI document names it ResourceMetadata.
import { z } from '@/lib/http/zod'

export const resourceMetadataSchema = z
  .object({
    name: z.string(),
    namespace: z.string(),
    labels: z.record(z.string(), z.string()),
    annotations: z.record(z.string(), z.string()),
    generation: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ResourceMetadata')
