'use client'
import { Button } from '@/components/ui/button'

/** Revokes a credential after the person confirms what stops working. */
export function RevokeButton({ confirmText, pending, onRevoke }: { confirmText: string; pending: boolean; onRevoke: () => void }) {
  return (
    <Button
      variant="ghost"
      className="text-red-800 hover:bg-red-50"
      disabled={pending}
      onClick={() => {
        if (window.confirm(confirmText)) onRevoke()
      }}
    >
      Revoke
    </Button>
  )
}
