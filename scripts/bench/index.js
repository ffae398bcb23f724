// `npm run bench [-- scenario…]`: runs the named scenario groups (default: all) and prints a table.
const harness = require('./harness');

const GROUPS = {
  foundation: require('./foundation.bench'),
  payouts: require('./payouts.bench'),
  commissions: require('./commissions.bench'),
  dataflow: require('./dataflow.bench'),
  probe: require('./probe.bench'),
  scale: require('./scale.bench'),
};

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length ? wanted : Object.keys(GROUPS);
  const server = await harness.startServer();
  let failed = 0;
  try {
    for (const name of names) {
      if (!GROUPS[name]) throw new Error(`unknown bench group ${name}; known: ${Object.keys(GROUPS).join(', ')}`);
      console.log(`\n## ${name}`);
      const { rows, verdicts } = await GROUPS[name](server, harness);
      console.table(rows);
      for (const v of verdicts) {
        console.log(`${v.pass ? 'PASS' : 'MISS'}  ${v.target}: ${v.value}`);
        if (!v.pass) failed++;
      }
    }
  } finally {
    server.kill('SIGTERM');
  }
  console.log(failed ? `\n${failed} target(s) missed` : '\nall targets met');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
