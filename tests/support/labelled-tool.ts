export interface LabelledToolOptions {
  namespace: string
  /** The inside of a flow mapping: `app: gitops, tier: gold`. */
  labels: string
  description: string
  /** More lines of its spec, each indented two spaces and ending in a newline. */
  extra?: string
}

/** A function Tool's document with labels, what selectors (and prune) match. */
export const labelledTool = (name: string, { namespace, labels, description, extra = '' }: LabelledToolOptions) => `apiVersion: toolroom.dev/v1alpha1
kind: Tool
metadata:
  name: ${name}
  namespace: ${namespace}
  labels: { ${labels} }
spec:
  type: function
  description: ${description}
  inputSchema: { type: object }
${extra}`
