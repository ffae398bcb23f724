// Drops the database named in the given MongoDB URI (used to clean up a test run's database).
const mongoose = require('mongoose');

const uri = process.argv[2];
if (!uri || !/\/marketplace_test_[A-Za-z0-9_]+$/.test(uri)) {
  console.error('refusing to drop a database that is not a test run database');
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
