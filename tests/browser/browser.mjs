// Headless Chromium for the browser tests: Debian's chromium package (scripts/setup installs it)
// driven by playwright-core. Each page records its console errors and uncaught exceptions, and
// screenshots go to the stack's run directory (screenshots/), as the run's artifacts.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { runDir } from '../support/stack.mjs';

export const chromiumPath = process.env.NETGRAPH_CHROMIUM ?? '/usr/bin/chromium';
export const screenshotDir = path.join(runDir, 'screenshots');

export async function launchBrowser() {
  // Chromium's sandbox cannot start as root (CI runs as root).
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath: chromiumPath, args, timeout: 60000 });
}

// A page that collects its console errors and uncaught exceptions in page.problems.
export async function openPage(browser, { viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(30000);
  page.problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.problems.push(`exception: ${error.message}`));
  // The WebSocket traffic, for the message of a failed assertion.
  page.socketLog = [];
  page.on('websocket', (socket) => {
    const note = (line) => page.socketLog.push(`${new Date().toISOString()} ${line.slice(0, 160)}`);
    note(`open ${socket.url()}`);
    socket.on('framesent', (frame) => note(`> ${frame.payload}`));
    socket.on('framereceived', (frame) => note(`< ${frame.payload}`));
    socket.on('close', () => note('closed'));
  });
  return page;
}

// Saves a screenshot as <run dir>/screenshots/<name>.png; returns its path.
export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
