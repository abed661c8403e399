import { Card } from '@/components/ui/card'

/** What a page shows a signed-in person whose role does not reach it (the API refuses them too). */
export function NotAllowed({ role, what, needs }: { role: string; what: string; needs: string }) {
  return (
    <Card>
      <p className="text-sm text-slate-700" role="alert">
        Your role (<strong>{role}</strong>) cannot {what}. That needs the <strong>{needs}</strong> role; ask an admin.
      </p>
    </Card>
  )
}
