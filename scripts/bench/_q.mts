import { prisma } from '@/lib/db'
import pg from 'pg'
const agent: any = await prisma.agent.findFirst({ where: { name: 'agent-7' } })
const c = new pg.Client({ connectionString: process.env.DATABASE_URL }); await c.connect()
const time = async (label: string, f: () => Promise<unknown>) => { let t = performance.now(); for (let i = 0; i < 20; i++) await f(); console.log(label, ((performance.now() - t) / 20).toFixed(2)) }
const grants = agent.spec.grants as string[]
await time('units prisma', () => prisma.unit.findMany({ where: { namespace: 'bench' }, select: { name: true, spec: true } }))
await time('units pg', () => c.query('select name, spec from "Unit" where namespace = $1', ['bench']))
await time('tools 120 raw prisma', () => prisma.$queryRaw`SELECT t.name, t.namespace, t.spec FROM "Tool" t JOIN unnest(${grants.map(() => 'bench')}::text[], ${grants}::text[]) AS r(namespace, name) ON t.namespace = r.namespace AND t.name = r.name`)
await time('tools 120 pg', () => c.query(`SELECT t.name, t.namespace, t.spec FROM "Tool" t JOIN unnest($1::text[], $2::text[]) AS r(namespace, name) ON t.namespace = r.namespace AND t.name = r.name`, [grants.map(() => 'bench'), grants]))
await time('agent prisma', () => prisma.agent.findUnique({ where: { id: agent.id } }))
await time('agent pg', () => c.query('select * from "Agent" where id = $1', [agent.id]))
await time('policies', () => prisma.sideEffectPolicy.findMany({ select: { level: true, spec: true } }))
await time('slugs', () => prisma.connector.findMany({ select: { name: true } }))
process.exit(0)
