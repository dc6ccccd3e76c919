// Playwright runs the tests in Debian's Chromium (/usr/bin/chromium); no
// browser is downloaded. One server serves every test (global-setup.js);
// each test makes its own game, so two workers can share it.

const { defineConfig } = require('@playwright/test');

const chromium = require('./chromium.js');

module.exports = defineConfig({
  testDir: './tests',
  globalSetup: require.resolve('./global-setup.js'),
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    // Set by global-setup.js before the workers start.
    baseURL: process.env.LEGION_BASE_URL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 860 },
    // English unless a test asks for another language (tests/i18n.spec.js).
    locale: 'en-US',
    launchOptions: { executablePath: chromium.executablePath, args: chromium.args },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
