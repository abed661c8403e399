// Prettier owns formatting (ESLint's stylistic rules are off): the style the code was written in.
/** @type {import('prettier').Config} */
const config = {
  semi: false,
  singleQuote: true,
  printWidth: 160,
  trailingComma: 'all',
  overrides: [
    // The YAML (manifests, the demo fleet, deployment files) is written with double quotes.
    { files: ['*.yaml', '*.yml'], options: { singleQuote: false } },
  ],
}

export default config
