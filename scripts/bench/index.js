// `npm run bench [-- group…]`: runs the named scenario groups and prints a table. Default: `scale`
// (20,000 orders over 10 shops: every list against its floor, round trips, ingestion, recalculation,
// updates, RSS) and `probe` (a new user's first look: seed:demo 2,000 and six endpoints). Other
// groups: foundation, payouts, commissions, dataflow, payouts-list and money (issue 17), events (issue 19),
// seller-tax and documents (issue 32: the 5,000-row statement PDF and the 100-order invoice render),
// vendor-scale (issue 30: the scale group's data seeded in-process, then the vendor surface's targets).
const harness = require('./harness');

const GROUPS = {
  foundation: require('./foundation.bench'),
  payouts: require('./payouts.bench'),
  commissions: require('./commissions.bench'),
  dataflow: require('./dataflow.bench'),
  probe: require('./probe.bench'),
  scale: require('./scale.bench'),
  'vendor-scale': require('./vendor-scale.bench'),
  'payouts-list': require('./money.bench').payoutsList,
  money: require('./money.bench').money,
  events: require('./events.bench'),
  'seller-tax': require('./seller-tax.bench'),
  documents: require('./documents.bench'),
};

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length ? wanted : ['scale', 'probe'];
  const server = await harness.startServer();
  let failed = 0;
  try {
    for (const name of names) {
      if (!GROUPS[name])
        throw new Error(`unknown bench group ${name}; known: ${Object.keys(GROUPS).join(', ')}`);
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
