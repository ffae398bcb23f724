import { createHash } from 'node:crypto';
import { relative } from 'node:path';

// Loaded after the test framework, before each e2e file: the file gets a database of its own, named
// after the run's database and the file (scripts/test.sh drops the run's databases at the end).
// Every app runs the maintenance sweepers (payout batches whose lease lapsed, vendor tallies), and
// they read every shop of their database: on a database shared by the files running side by side,
// another file's app would finish the very batch or tally a test holds in a crash window.
// Child processes (the CLI, the built server) get it through process.env like the rest.
const file = relative(`${__dirname}/..`, expect.getState().testPath ?? 'unknown');
const tag = createHash('sha256').update(file).digest('hex').slice(0, 8);
process.env.MONGODB_URI = process.env.MONGODB_URI!.replace(
  /\/([^/?]+)(\?|$)/,
  (_m, db: string, q: string) => `/${db}_f${tag}${q}`,
);
