// How a Node.js process runs our TypeScript sources without a build: tsx as the loader, and the
// react-server export condition, under which `server-only` (the marker on every server module, which
// throws anywhere else) is its empty module, as it is in Next.js's server bundles. Nothing else we
// load from a server process has a react-server export.
export const TSX_NODE_ARGS = ['--conditions=react-server', '--import', 'tsx']
