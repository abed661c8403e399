// A label selector as a Prisma `where` over a kind's `labels` JSON column. A missing key reads as SQL
// NULL there, so the negative operators (`!=`, `notin`), which Kubernetes defines to match resources
// without the key, say so explicitly; the integration property test holds this to the pure matcher
// (lib/labels/label-selector.ts).
import 'server-only'
import { Prisma } from '@/lib/generated/prisma/client'
import type { LabelRequirement, LabelSelector } from '@/lib/labels/label-selector'

export function labelSelectorWhere(selector: LabelSelector): object[] {
  return selector.requirements.map(requirementWhere)
}

function requirementWhere({ key, operator, values }: LabelRequirement): object {
  const at = (filter: object) => ({ labels: { path: [key], ...filter } })
  const absent = at({ equals: Prisma.AnyNull })
  switch (operator) {
    case 'exists':
      return at({ not: Prisma.AnyNull })
    case 'doesNotExist':
      return absent
    case 'equals':
    case 'in':
      return { OR: values.map((value) => at({ equals: value })) }
    case 'notEquals':
    case 'notIn':
      return { OR: [absent, { AND: values.map((value) => at({ not: value })) }] }
  }
}
