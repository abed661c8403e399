/** `fixed` keeps column widths identical across several tables of the same shape on one page. */
export function Table({ children, className = '', fixed = false }: { children: React.ReactNode; className?: string; fixed?: boolean }) {
  return (
    <div className={`overflow-x-auto ${className}`}>
      <table className={`w-full border-collapse text-left text-sm ${fixed ? 'table-fixed' : ''}`}>{children}</table>
    </div>
  )
}

export function THead({ children }: { children: React.ReactNode }) {
  return <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">{children}</thead>
}

export function Th({ children, className = '' }: { children?: React.ReactNode; className?: string }) {
  return (
    <th scope="col" className={`px-3 py-2 font-medium ${className}`}>
      {children}
    </th>
  )
}

export function TBody({ children }: { children: React.ReactNode }) {
  return <tbody className="divide-y divide-slate-100">{children}</tbody>
}

export function Tr({ children, className = '', ...rest }: React.HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined }) {
  return (
    <tr className={`align-baseline ${className}`} {...rest}>
      {children}
    </tr>
  )
}

export function Td({ children, className = '', ...rest }: React.TdHTMLAttributes<HTMLTableCellElement>) {
  return (
    <td className={`px-3 py-2 ${className}`} {...rest}>
      {children}
    </td>
  )
}
