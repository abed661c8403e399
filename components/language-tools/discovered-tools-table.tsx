'use client'
import { Fragment, useState } from 'react'
import { SchemaView } from '@/components/tools/schema-view'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { canonicalMcpToolId } from '@/lib/tools/naming'
import { McpHintBadges } from './mcp-hint-badges'
import type { DiscoveredTool } from './types'

/** Tools a server answered to tools/list with, in server order, under their canonical ids. */
export function DiscoveredToolsTable({ server, tools }: { server: string; tools: DiscoveredTool[] }) {
  const [open, setOpen] = useState<string | null>(null)
  return (
    <Table>
      <THead>
        <tr>
          <Th>Canonical id</Th>
          <Th>Upstream name</Th>
          <Th>Description</Th>
          <Th className="w-60">Annotations</Th>
        </tr>
      </THead>
      <TBody>
        {tools.map((t) => {
          const id = canonicalMcpToolId(server, t.name)
          const expanded = open === t.name
          return (
            <Fragment key={t.name}>
              <Tr
                data-testid="discovered-tool-row"
                data-tool-name={t.name}
                className="cursor-pointer hover:bg-slate-50"
                onClick={() => setOpen(expanded ? null : t.name)}
              >
                <Td>
                  <button type="button" aria-expanded={expanded} className="flex gap-1.5 text-left font-mono text-[13px] font-medium text-slate-900">
                    <span aria-hidden className="w-3 text-xs text-slate-400">
                      {expanded ? '▾' : '▸'}
                    </span>
                    {id ?? (
                      <span className="text-red-700" title="no canonical id can be made of this name; the tool is not offered">
                        (not canonical)
                      </span>
                    )}
                  </button>
                </Td>
                <Td className="font-mono text-xs text-slate-600">{t.name}</Td>
                <Td className="text-xs text-slate-600">{t.description ?? t.title ?? <em className="text-slate-400">no description</em>}</Td>
                <Td>
                  <McpHintBadges hints={t.annotations} />
                </Td>
              </Tr>
              {expanded && (
                <tr className="bg-slate-50">
                  <td colSpan={4} className="px-3 pb-3 pt-1">
                    <div className="rounded-md border border-slate-200 bg-white p-3">
                      <SchemaView schema={t.inputSchema} />
                    </div>
                  </td>
                </tr>
              )}
            </Fragment>
          )
        })}
      </TBody>
    </Table>
  )
}
