// Drops the database named in the given MongoDB URI: a test run's database, or the bench's (which
// starts every run empty). Any other name is refused. With --and-files, also every database named
// after it (`<name>_…`): the e2e files' own databases of that run (test/support/database-per-file.ts).
const mongoose = require('mongoose');

const [uri, flag] = process.argv.slice(2);
if (!uri || !/\/marketplace_(test_[A-Za-z0-9_]+|bench(_[A-Za-z0-9_]+)?)$/.test(uri)) {
  console.error('refusing to drop a database that is not a test run or bench database');
  process.exit(2);
}

async function main() {
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 3000 });
  const name = mongoose.connection.db.databaseName;
  const names = [name];
  if (flag === '--and-files') {
    const { databases } = await mongoose.connection.db.admin().listDatabases({ nameOnly: true });
    names.push(...databases.map((d) => d.name).filter((n) => n.startsWith(`${name}_`)));
  }
  for (const n of names) await mongoose.connection.useDb(n, { useCache: false }).dropDatabase();
  await mongoose.disconnect();
  return names.length;
}

main().then(
  (n) => flag === '--and-files' && console.log(`dropped ${n} database(s)`),
  (err) => {
    console.error(err.message);
    process.exit(1);
  },
);
