import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { useScene } from '../support/scene';
import { OWASP_XSS_VECTORS } from './owasp-xss-vectors';
import { sharePage } from './public-page-fixtures';

/** Debian's chromium package (`apt-get install -y chromium`); .ci/run installs it where it can. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Every vector made to set a flag instead of alerting, and a few that would set it outright. */
const HOSTILE_CONTENT = [
  '<p id="greeting">Hello from a shared page</p>',
  '<script>window.__xss = "script"</script>',
  '<img src="x" onerror="window.__xss = \'onerror\'">',
  '<svg onload="window.__xss = \'svg\'"></svg>',
  '<iframe srcdoc="<script>parent.__xss = \'iframe\'</script>"></iframe>',
  ...OWASP_XSS_VECTORS.map((vector) => vector.replace(/alert\(/g, '(window.__xss = 1, ')),
].join('\n');

/** Kept after the run, to look at. */
const SCREENSHOTS = join(tmpdir(), 'public-page-screenshots');

const TITLE = 'Quarterly plan </title><script>window.__xss = "title"</script>';

const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent)
  console.warn(`SKIPPED the real-browser check: ${CHROMIUM} is absent (apt-get install -y chromium installs it)`);

(chromiumPresent ? describe : describe.skip)('A shared page with hostile content in headless Chromium', () => {
  const s = useScene();
  let url: string;
  let profiles: string;

  beforeAll(async () => {
    await s.t.app.listen(0, '127.0.0.1');
    const { port } = s.t.app.getHttpServer().address() as AddressInfo;
    const page = await sharePage(s, { title: TITLE, content: HOSTILE_CONTENT, font: 'serif' });
    url = `http://127.0.0.1:${port}${page.path}`;
    profiles = mkdtempSync(join(tmpdir(), 'public-page-browser-'));
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(() => rmSync(profiles, { recursive: true, force: true }));

  /** A fresh profile each time; bypassCSP shows what the sanitiser alone does. */
  async function browse<T>(name: string, bypassCSP: boolean, work: (context: BrowserContext) => Promise<T>) {
    const { chromium } = await import('playwright-core');
    const context = await chromium.launchPersistentContext(join(profiles, name), {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      headless: true,
      bypassCSP,
    });
    try {
      return await work(context);
    } finally {
      await context.close();
    }
  }

  it.each([
    ['with its Content-Security-Policy', false],
    ['with the CSP bypassed: the sanitiser alone', true],
  ])('runs no script %s, and shows the title and the text', async (_label, bypassCSP) => {
    const screenshot = join(SCREENSHOTS, `${bypassCSP ? 'without-csp' : 'with-csp'}.png`);
    const seen = await browse(bypassCSP ? 'no-csp' : 'csp', bypassCSP, async (context) => {
      const page = await context.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message())));
      const response = await page.goto(url, { waitUntil: 'load' });
      // Handlers such as onmouseover wait for a pointer: move it over everything there is.
      await page.mouse.move(10, 10);
      await page.mouse.move(400, 300, { steps: 10 });
      await page.screenshot({ path: screenshot, fullPage: true });
      return {
        status: response?.status(),
        flag: await page.evaluate<unknown>('window.__xss ?? null'),
        dialogs,
        title: await page.title(),
        heading: await page.locator('h1').innerText(),
        headingVisible: await page.locator('h1').isVisible(),
        greetingVisible: await page.locator('#greeting, p:has-text("Hello from a shared page")').first().isVisible(),
        scripts: await page.locator('script').count(),
        fontFamily: await page.evaluate<string>('getComputedStyle(document.body).fontFamily'),
      };
    });
    expect(seen).toEqual({
      status: 200,
      flag: null,
      dialogs: [],
      title: TITLE,
      heading: TITLE,
      headingVisible: true,
      greetingVisible: true,
      scripts: 0,
      fontFamily: expect.stringContaining('Georgia'),
    });
    expect(statSync(screenshot).size).toBeGreaterThan(1000);
  });
});
