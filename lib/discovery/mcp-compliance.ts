// Compliance of an MCP server with the LanguageTool checklist (language-operator seed): JSON-RPC at
// the endpoint, tools/list with every input schema, tools/call, GET /health and MCP error objects
// rather than HTTP error statuses. The report is built from observations by pure functions; the
// probing (plain JSON-RPC POSTs through the guarded fetch, or requests over a connected SDK client
// for SSE servers) is separate.
// Those live in ./mcp/ (compliance-report, json-rpc-answer, compliance-probes); this file re-exports them.

export {
  buildComplianceReport,
  COMPLIANCE_PROBE_METHOD,
  COMPLIANCE_PROBE_TOOL,
  COMPLIANCE_REQUIREMENTS,
  type ComplianceItem,
  type ComplianceItemId,
  type ComplianceObservations,
  type ComplianceReport,
  type ComplianceStatus,
  describeProbeAnswer,
  type ProbeAnswer,
} from './mcp/compliance-report'
export { findJsonRpcAnswer, type JsonRpcHttpAnswer, type JsonRpcMessage, probeAnswerFromHttp, readJsonRpcAnswer, sseDataFrames } from './mcp/json-rpc-answer'
export {
  type ComplianceProbeResult,
  MCP_POST_HEADERS,
  type PostProbeOptions,
  probeComplianceOverPost,
  type ProbeRequester,
  runComplianceProbes,
} from './mcp/compliance-probes'
export { excerptOf } from '@/lib/json/unknown-values'
