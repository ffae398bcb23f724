// Issue 2: GET /health vs an authenticated one-read endpoint (GET /v1/merchant-keys).
// Targets: the authenticated endpoint reaches >= 40% of /health's requests/s; RSS under load < 250 MB.
const { benchShop, load } = require('./harness');

module.exports = async function foundation(server) {
  const shop = await benchShop('bench-foundation');
  const health = await load('GET /health', { path: '/health' }, server.pid);
  const keys = await load('GET /v1/merchant-keys (shop token)', { path: '/v1/merchant-keys', headers: { 'x-access-token': shop.token } }, server.pid);
  const ratio = keys['req/s'] / health['req/s'];
  return {
    rows: [health, keys],
    verdicts: [
      { target: 'authenticated endpoint >= 40% of /health req/s', value: `${(ratio * 100).toFixed(0)}%`, pass: ratio >= 0.4 },
      { target: 'peak RSS under load < 250 MB', value: `${keys.peak_rss_mb} MB`, pass: keys.peak_rss_mb < 250 },
    ],
  };
};
