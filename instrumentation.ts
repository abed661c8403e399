// Next.js calls register() once when the server starts: from then on, secret values this process
// sees are masked in everything it writes to its logs.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { installLogMasking } = await import('@/lib/secrets/mask-secret-values')
    installLogMasking()
  }
}
