// A manifest with six problems in four documents, and the same manifest fixed. Apply must answer every
// problem in one round, each at its line and column (before, it answered only the syntax error, and the
// rest took three more rounds of fixes). The unit test of the manifest reader, the Apply API test and
// the Apply page's journey check the same text.

export interface ManifestNames {
  namespace: string
  tool: string
  agent: string
}

const DEFAULT_NAMES: ManifestNames = { namespace: 'errs', tool: 'weather.forecast', agent: 'forecaster' }

// A missing endpoint and a description that is not text, an unknown field, a syntax error, a second
// Agent of the same name and a toggle that is not a boolean.
export const manifestWithProblems = ({ namespace, tool, agent }: ManifestNames = DEFAULT_NAMES) => `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata:
  name: ${tool}
  namespace: ${namespace}
spec:
  type: rest
  description: 42
  inputSchema: { type: object }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${agent}, namespace: ${namespace} }
spec:
  grants: [${tool}]
  colour: blue
---
kind: Agent
metadata: { name: broken
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${agent}, namespace: ${namespace} }
spec:
  toggles: { ${tool}: maybe }
`

export const manifestFixed = (
  { namespace, tool, agent }: ManifestNames = DEFAULT_NAMES,
  description = 'The forecast for a city.',
) => `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata: { name: ${tool}, namespace: ${namespace} }
spec:
  type: rest
  description: ${description}
  inputSchema: { type: object }
  endpoint: { method: GET, url: "https://weather.example.com/forecast" }
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata: { name: ${agent}, namespace: ${namespace} }
spec: { grants: [${tool}], toggles: { ${tool}: true } }
`

/**
 * The problems of manifestWithProblems(), in text order. A missing field is placed at its parent's key,
 * a wrong value at the value, an unknown key at the key. Lines hold for any names; fields and columns
 * are those of the default names. Where the YAML parser notices the syntax error is its own choice,
 * somewhere in lines 18 to 20: `somewhere` stands for that line and column (the runner's
 * `expect.any(Number)`).
 */
export const problemsOfManifest = (somewhere: unknown) => [
  { document: 0, field: 'spec.endpoint', rule: 'required', line: 6, column: 1 },
  { document: 0, field: 'spec.description', rule: 'type', line: 8, column: 16 },
  { document: 1, field: 'spec.colour', rule: 'unknown-field', line: 16, column: 3 },
  { document: 2, field: '(document)', rule: 'yaml-syntax', line: somewhere, column: somewhere },
  { document: 3, field: 'metadata.name', rule: 'duplicate', line: 23, column: 19 },
  { document: 3, field: 'spec.toggles.weather.forecast', rule: 'type', line: 25, column: 32 },
]
