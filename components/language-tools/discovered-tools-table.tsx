'use client'
import { SchemaView } from '@/components/tools/schema-view'
import { ExpandableRows, ExpandToggle } from '@/components/ui/expandable-rows'
import { Table, TBody, Td, Th, THead } from '@/components/ui/table'
import { canonicalMcpToolId } from '@/lib/tools/naming'
import { McpHintBadges } from './mcp-hint-badges'
import type { DiscoveredTool } from './types'

/** Tools a server answered to tools/list with, in server order, under their canonical ids. */
export function DiscoveredToolsTable({ server, tools }: { server: string; tools: DiscoveredTool[] }) {
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
        <ExpandableRows
          items={tools}
          rowKey={(t) => t.name}
          rowAttributes={(t) => ({ 'data-testid': 'discovered-tool-row', 'data-tool-name': t.name })}
          columnCount={4}
          details={(t) => (
            <div className="rounded-md border border-slate-200 bg-white p-3">
              <SchemaView schema={t.inputSchema} />
            </div>
          )}
        >
          {(t, expanded) => (
            <>
              <Td>
                <ExpandToggle expanded={expanded} className="flex gap-1.5 text-left font-mono text-[13px] font-medium text-slate-900">
                  {canonicalMcpToolId(server, t.name) ?? (
                    <span className="text-red-700" title="no canonical id can be made of this name; the tool is not offered">
                      (not canonical)
                    </span>
                  )}
                </ExpandToggle>
              </Td>
              <Td className="font-mono text-xs text-slate-600">{t.name}</Td>
              <Td className="text-xs text-slate-600">{t.description ?? t.title ?? <em className="text-slate-400">no description</em>}</Td>
              <Td>
                <McpHintBadges hints={t.annotations} />
              </Td>
            </>
          )}
        </ExpandableRows>
      </TBody>
    </Table>
  )
}
