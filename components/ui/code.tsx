/** A name, id or value as the machine spells it, inline: monospace, and free to break anywhere. */
export function Code({ children }: { children: React.ReactNode }) {
  return <code className="break-all font-mono text-xs">{children}</code>
}
