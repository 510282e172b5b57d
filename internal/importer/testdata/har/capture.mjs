// Browses the demo shop in headless Chromium and saves the session as a HAR
// file, written by Playwright's own recorder (recordHar), as a browser's
// developer tools would. Run by capture.sh; see README.md.
//
//   node capture.mjs BASE_URL OUT.har
import { chromium } from 'playwright-core';

const [base, out] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const context = await browser.newContext({ recordHar: { path: out, content: 'embed' } });
const page = await context.newPage();

// A visitor opens the shop, reads the first page, looks at a product of it,
// logs in, checks who they are, posts to the feed and reads it. The page's
// own script makes the calls, as a single-page app would.
await page.goto(base + '/healthz');
await page.evaluate(async () => {
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  const json = async (r) => { const t = await r.text(); try { return JSON.parse(t); } catch { return {}; } };
  await fetch('/static/app.js').catch(() => {});            // a static asset: the import leaves it out
  const first = await json(await fetch('/apps/first-page'));
  await pause(1200);
  await fetch('/apps/first-page/GAME');
  await fetch('/products/' + first.apps[1].id);              // an id the first page handed out
  await pause(1500);
  const login = await json(await fetch('/login', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ user: 'alice', password: 'wonderland' }),
  }));
  const auth = { Authorization: 'Bearer ' + login.token };   // a token the login handed out
  await fetch('/me', { headers: auth });
  await pause(800);
  await fetch('/feed', {
    method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ text: 'hello from the browser', user: 1 }),
  });
  await fetch('/feed?limit=5', { headers: auth });
});
await context.close();
await browser.close();
