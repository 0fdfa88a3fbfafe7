// Import rules that need the whole import graph, checked by `make lint` after eslint (npm run
// lint:deps; infra/test/dependency-rules.test.ts shows each rule refusing an example). No import
// cycle anywhere (STYLE.md habit 13), type-only imports included: a cycle of types is still two
// modules that cannot be understood, moved or tested apart (eslint-plugin-import-x's no-cycle
// skips them). The SPA's deep `@furniture/contracts/<module>` imports stay unresolved here: the
// contracts import nothing of the SPA, so no cycle or boundary can pass through them.
// The SPA's features (frontend/README.md): a folder under src/features/, and in the back-office
// area src/features/admin/ a folder under it, except the area's shared api/, lib/, ui/, test/.
const FEATURES = '^frontend/src/features/';
const ENTRY = '^frontend/src/features/(admin/)?[^/]+/index\\.tsx?$';
const ADMIN_SHARED = '^frontend/src/features/admin/(api|lib|ui|test)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other, directly or through others (STYLE.md habit 13).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'notification-modules-apart',
      comment:
        "The notification service's mail and activity modules do not import each other; what both need lives in src/privacy (services/notification/README.md).",
      severity: 'error',
      from: { path: '^services/notification/src/(mail|activity)/' },
      to: {
        path: '^services/notification/src/(mail|activity)/',
        pathNot: '^services/notification/src/$1/',
      },
    },
    {
      name: 'notification-privacy-below-modules',
      comment: 'The shared privacy part does not depend on the modules that use it.',
      severity: 'error',
      from: { path: '^services/notification/src/privacy/' },
      to: { path: '^services/notification/src/(mail|activity)/' },
    },
    {
      name: 'spa-feature-entry',
      comment:
        'A feature of the SPA imports another feature only through its public entry, features/<feature>/index.ts (frontend/README.md).',
      severity: 'error',
      from: { path: '^frontend/src/features/((?!admin/)[^/]+)/' },
      to: { path: FEATURES, pathNot: ['^frontend/src/features/$1/', ENTRY] },
    },
    {
      name: 'spa-admin-feature-entry',
      comment:
        "A back-office feature, and the back-office's shared api/, lib/, ui/ and test/, import a feature only through its index.ts (frontend/README.md).",
      severity: 'error',
      from: { path: '^frontend/src/features/(admin/[^/]+)/' },
      to: { path: FEATURES, pathNot: ['^frontend/src/features/$1/', ENTRY, ADMIN_SHARED] },
    },
    {
      name: 'spa-admin-shell-entry',
      comment:
        "The back-office's shell (features/admin/AdminRoutes.tsx) imports features through their index.ts; only a lazy route's import() of a page reaches into a feature: the page is a chunk of its own.",
      severity: 'error',
      from: { path: '^frontend/src/features/admin/[^/]+$' },
      to: {
        path: FEATURES,
        pathNot: [ENTRY, ADMIN_SHARED, '^frontend/src/features/admin/[^/]+$'],
        dependencyTypesNot: ['dynamic-import'],
      },
    },
    {
      name: 'spa-shared-code-below-features',
      comment: "The SPA's shared components/, lib/ and config/ import no feature.",
      severity: 'error',
      from: { path: '^frontend/src/(components|lib|config)/' },
      to: { path: FEATURES },
    },
  ],
  options: {
    doNotFollow: { path: ['(^|/)node_modules/'] },
    exclude: {
      path: [
        '(^|/)node_modules/',
        '(^|/)dist/',
        '(^|/)coverage/',
        '^\\.data/',
        '^\\.tools/',
        '^test-output/',
      ],
    },
    // type-only imports are dependencies too
    tsPreCompilationDeps: true,
    // a second run reads only the files that changed
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // the workspaces' package.json name their TypeScript sources under "types"
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
      mainFields: ['types', 'main'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
