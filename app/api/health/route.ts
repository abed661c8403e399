import { answerHealth } from '@/lib/health/answer-health'
import { methodsNotAllowed } from '@/lib/http/method-not-allowed'

export const dynamic = 'force-dynamic'

export const GET = answerHealth
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(['GET'])
