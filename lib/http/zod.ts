// The zod instance every schema is built with: extended with `.openapi()` so the same schemas that
// validate requests describe them in the OpenAPI document.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi'
import { z } from 'zod'

extendZodWithOpenApi(z)

export { z }
