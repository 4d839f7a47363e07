// Which way imports may run (docs/architecture.md). `npm run deps` fails on any of these.
const featureNames = 'accounts|profiles|communities|games|results|live|hosting|calendar|sharing';
const serverFeatures = `(${featureNames})`;
// Test files are not followed: next to the code they test, they would make every folder seem to
// depend on the test helpers and back. What they import is theirs to choose.
const testFiles = '\\.test\\.tsx?$';
const testCode = `(${testFiles}|^server/src/test/|^server/bench/)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve: the rules below cannot see where it goes.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'An import cycle: the modules in it cannot be read, tested or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Two folders import each other: what they share belongs a layer down.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-feature-to-feature',
      severity: 'error',
      comment: 'A server feature imports no other feature: move what they share to core/ or platform/.',
      from: { path: `^server/src/${serverFeatures}/` },
      to: { path: `^server/src/${serverFeatures}/`, pathNot: '^server/src/$1/' },
    },
    {
      name: 'server-feature-to-composition',
      severity: 'error',
      comment: 'Features are composed by app.ts, app/ and seed/; they do not import them.',
      from: { path: `^server/src/${serverFeatures}/` },
      to: { path: '^server/src/(seed/|app/|app\\.ts$|main\\.ts$)' },
    },
    {
      name: 'server-lower-layer-to-upper',
      severity: 'error',
      comment: 'platform/ and core/ sit below the features and the composition (seed/, app/).',
      from: { path: '^server/src/(platform|core)/' },
      to: { path: `^server/src/(${featureNames}|seed|app)(/|\\.ts$)|^server/src/main\\.ts$` },
    },
    {
      name: 'product-to-test-code',
      severity: 'error',
      comment: 'Product code imports no test helpers, factories or benchmarks.',
      from: { path: '^(server/src|web/src|contract/src|rules/src)/', pathNot: testCode },
      to: { path: testCode },
    },
    {
      name: 'web-feature-to-feature',
      severity: 'error',
      comment: 'A web feature imports no other feature: compose them in app/, share through shared/ or api/.',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'web-lower-layer-to-upper',
      severity: 'error',
      comment: 'shared/ and api/ sit below the features and app/.',
      from: { path: '^web/src/(shared|api)/' },
      to: { path: '^web/src/(features|app)/' },
    },
    {
      name: 'web-feature-to-app',
      severity: 'error',
      comment: 'app/ composes the features; a feature does not reach back into it.',
      from: { path: '^web/src/features/' },
      to: { path: '^web/src/app/' },
    },
    {
      name: 'to-e2e',
      severity: 'error',
      comment: 'The browser tests drive the app from outside; nothing imports them.',
      from: { pathNot: '^e2e/' },
      to: { path: '^e2e/' },
    },
    {
      name: 'server-web-apart',
      severity: 'error',
      comment: 'Server and web share only contract/ and rules/.',
      from: { path: '^(server|web)/' },
      to: { path: '^(server|web)/', pathNot: '^$1/' },
    },
    {
      name: 'rules-to-app-code',
      severity: 'error',
      comment: 'rules/ is pure and shared: it imports contract/ only, never server, web or e2e.',
      from: { path: '^rules/' },
      to: { path: '^(server|web|e2e)/' },
    },
    {
      name: 'contract-to-ours',
      severity: 'error',
      comment: 'contract/ is the bottom layer: it imports nothing of ours.',
      from: { path: '^contract/' },
      to: { path: '^(rules|server|web|e2e)/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', testFiles] },
    // Type-only imports tie modules together as much as value imports do.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // '@hunch/contract' and friends resolve through the workspace links to their src/index.ts.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
  },
};
