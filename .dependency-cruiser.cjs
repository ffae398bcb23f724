/**
 * One way down (STYLE.md, docs/architecture.md): the rules `npm run lint:deps` holds over src/.
 * `LAYERS` is the order of src/'s folders (and top-level files), top to bottom: a file may import
 * only from its own folder or a folder below it, so no two folders ever import each other (no
 * folder loop), on top of no module cycle. Type-only imports count (tsPreCompilationDeps): a cycle
 * through types is still a loop a reader has to follow. To move a folder, move its line here.
 */
const LAYERS = [
  // entry points
  'main.ts',
  'worker.ts',
  'cli',
  // app wiring, and the OpenAPI documents of the wired app
  'app.module.ts',
  'processors.module.ts',
  'app.factory.ts',
  'docs',
  // operator surfaces that read every feature
  'ops',
  'health',
  // features, in the order money flows (DESIGN §8–§11), then the ones they build on
  'dashboards', // reads the money features below it (line items, payouts, transfers, balances, products)
  'documents', // DESIGN §14: issued documents, their PDFs and signed links; reads statements and below
  'statements',
  // DESIGN §15: the scheduler drives the payout engine (payouts never imports it)
  'payout-schedule',
  'reports', // the seller tax report: reads line-items and vendors
  'payouts',
  'transfers',
  'events', // the delivery engine of outbound events: it reads features, features never import it
  'ingestion',
  'orders',
  'fulfillments',
  'refunds',
  'line-items',
  'adjustments',
  'commissions',
  'products',
  'auth',
  'jobs',
  // DESIGN §14: vendor tax profiles, read by documents, the seller tax report and payout eligibility above
  'tax-profiles',
  'vendors',
  'merchant-keys',
  'vendor-keys',
  'users',
  'shops',
  // the port features publish events through (sink, catalogue, fan-out, pending-event marker)
  'event-port',
  'audit',
  'balances',
  'idempotency',
  'order-data',
  'queues',
  'redis',
  'mail',
  // the store: connection, tenant base repository and guard, every store accommodation
  'database',
  'common',
  'config',
];
const FEATURES = LAYERS.slice(LAYERS.indexOf('dashboards'), LAYERS.indexOf('event-port'));
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pathOf = (layer) => (layer.endsWith('.ts') ? `^src/${esc(layer)}$` : `^src/${esc(layer)}/`);
const any = (layers) =>
  `^src/(${layers.map((l) => (l.endsWith('.ts') ? esc(l) + '$' : esc(l) + '/')).join('|')})`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No two modules import each other, directly or through others.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'config-is-the-ground',
      severity: 'error',
      comment: 'config/ imports nothing else of ours.',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    {
      name: 'common-on-common-and-config',
      severity: 'error',
      comment: 'common/ imports only common/ and config/.',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: '^src/(common|config)/' },
    },
    {
      name: 'database-imports-no-feature',
      severity: 'error',
      from: { path: '^src/database/' },
      to: { path: any(FEATURES) },
    },
    {
      name: 'features-never-up',
      severity: 'error',
      comment: 'A feature never imports the OpenAPI documents, the app wiring or an entry point.',
      from: { path: any(FEATURES) },
      to: {
        path: any([
          'docs',
          'app.module.ts',
          'app.factory.ts',
          'processors.module.ts',
          'cli',
          'main.ts',
          'worker.ts',
        ]),
      },
    },
    {
      name: 'features-publish-through-the-port',
      severity: 'error',
      comment:
        'Features publish through event-port/; only the wiring and operator surfaces import the delivery engine.',
      from: { path: any(FEATURES.filter((f) => f !== 'events')) },
      to: { path: '^src/events/' },
    },
    {
      name: 'money-chain-one-way',
      severity: 'error',
      comment:
        'line-items/ (sale and refund rows, order summaries) never imports what comes after it in the money chain.',
      from: { path: '^src/line-items/' },
      to: { path: any(['refunds', 'payouts', 'statements', 'transfers']) },
    },
    {
      name: 'store-quirks-stay-in-the-database-layer',
      severity: 'error',
      comment:
        'Store fragments (combined-read parts, page floors, store ranges, raw-document reads, filter helpers) are named only in database/ and in repositories (*.repository.ts, their *-queries.ts and *.schema.ts): no service, port or controller sees one.',
      from: {
        path: '^src/',
        pathNot: [
          '^src/database/',
          '\\.repository\\.ts$',
          '-queries\\.ts$',
          '\\.schema\\.ts$',
          '\\.module\\.ts$',
          '^src/app\\.factory\\.ts$',
        ],
      },
      to: {
        path: '^src/database/',
        pathNot: '^src/database/(tenant-guard\\.plugin|command-observer|database\\.module)\\.ts$',
      },
    },
    {
      name: 'every-folder-has-a-layer',
      severity: 'error',
      comment: 'A new folder of src/ takes its place in LAYERS before it imports anything.',
      from: { path: '^src/', pathNot: any(LAYERS) },
      to: {},
    },
    // One way down: each folder imports only its own folder and those below it.
    ...LAYERS.slice(1).map((layer, i) => ({
      name: `one-way-down:${layer}`,
      severity: 'error',
      comment: `${layer} sits below ${LAYERS.slice(0, i + 1).join(', ')} (LAYERS)`,
      from: { path: pathOf(layer) },
      to: { path: any(LAYERS.slice(0, i + 1)) },
    })),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
  },
};
