// Debian's Chromium and the flags every run uses (tests and screenshots).
// Playwright never downloads a browser here.

const executablePath = process.env.LEGION_CHROMIUM || '/usr/bin/chromium';
const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

module.exports = { executablePath, args, launchOptions: { executablePath, args, headless: true } };
