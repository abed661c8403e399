// A starting point for operators facing an empty textarea: one tool and one agent granted it.
export const EXAMPLE_MANIFEST = `apiVersion: joch.dev/v1alpha1
kind: Tool
metadata:
  name: weather.get_forecast
  namespace: default
spec:
  type: rest
  description: Get the weather forecast for a city.
  endpoint:
    method: GET
    url: https://weather.example.com/forecast
  inputSchema:
    type: object
    required: [city]
    properties:
      city: { type: string }
  sideEffects:
    level: read_only
    idempotent: true
---
apiVersion: toolroom.dev/v1alpha1
kind: Agent
metadata:
  name: forecaster
  namespace: default
spec:
  grants: [weather.get_forecast]
`
