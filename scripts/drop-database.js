// Drops the database named in the given MongoDB URI: a test run's database, or the bench's (which
// starts every run empty). Any other name is refused.
const mongoose = require('mongoose');

const uri = process.argv[2];
if (!uri || !/\/marketplace_(test_[A-Za-z0-9_]+|bench)$/.test(uri)) {
  console.error('refusing to drop a database that is not a test run or bench database');
  process.exit(2);
}
mongoose
  .connect(uri, { serverSelectionTimeoutMS: 3000 })
  .then(() => mongoose.connection.dropDatabase())
  .then(() => mongoose.disconnect())
  .catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
