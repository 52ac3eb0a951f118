// The set-up every end-to-end file shares: the real server on a fresh database, Chromium, and — when the
// file walks one road in one page — that page, logged in if asked. setupE2e() registers the file's
// beforeAll and afterAll; what it returns is filled before the first test and torn down after the last
// (after the file's own afterAll hooks, which may still read the page: vitest runs them in reverse).
// A file whose tests are the steps of one road (`walk`) gets its screenshot folder emptied first, and
// after a failing step the rest are skipped — not failed for that reason — with where each page was,
// its messages and a screenshot `failure` kept.

import fs from 'node:fs';
import path from 'node:path';

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { launchBrowser, login, newPage, screenshot, SHOTS, type Account } from './browser';
import { startServer, type ServerOptions, type TestServer } from './server';

/** What the tests use of a server: where it is, what it printed, and stopping it. */
export type RunningServer = Pick<TestServer, 'baseUrl' | 'output' | 'stop'>;

export interface E2eOptions {
  /** Token lifetimes and the like for the server started here. */
  server?: ServerOptions;
  /** Starts another server instead (a copied project, say); it is stopped like the usual one. */
  start?: () => Promise<RunningServer>;
  /** Runs before the server starts (the environment it must read); `after` runs after everything stopped. */
  before?: () => Promise<void> | void;
  after?: () => Promise<void> | void;
  /** One page for the whole file, in its own context. */
  page?: boolean;
  /** Logs that page in (implies `page`). */
  login?: Account;
  /** Further set-up once everything is up (data the file needs, made as the logged-in user). */
  ready?: (e2e: E2e) => Promise<void> | void;
  /** The beforeAll hook's timeout (the client build and the server's start count in it). */
  timeout?: number;
  /**
   * The tests are steps of one road: `shots` is the folder under test-output/e2e emptied before the run
   * (no pictures of an older one); a failure skips the steps after it and reports the file's page — and
   * the `pages` named here (label → page) — with its URL, messages and a screenshot `failure[-label]`.
   */
  walk?: { shots: string; pages?: () => Array<[string, Page | undefined]> };
}

export interface E2e {
  readonly server: RunningServer;
  readonly browser: Browser;
  /** Only with `page` or `login`. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** A new page in a context of its own (a browser of its own, as far as the app can tell). */
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
}

export function setupE2e(options: E2eOptions = {}): E2e {
  const made: Partial<{ server: RunningServer; browser: Browser; context: BrowserContext; page: Page }> = {};
  const get = <K extends keyof typeof made>(key: K): NonNullable<(typeof made)[K]> => {
    const value = made[key];
    if (!value) throw new Error(`e2e set-up: no ${key} (${key === 'page' || key === 'context' ? 'ask for page or login' : 'beforeAll has not run'})`);
    return value;
  };
  const e2e: E2e = {
    get server() {
      return get('server');
    },
    get browser() {
      return get('browser');
    },
    get context() {
      return get('context');
    },
    get page() {
      return get('page');
    },
    newPage: () => newPage(get('browser'), get('server').baseUrl),
  };

  beforeAll(async () => {
    if (options.walk) fs.rmSync(path.join(SHOTS, options.walk.shots), { recursive: true, force: true });
    await options.before?.();
    made.server = await (options.start ? options.start() : startServer(options.server));
    made.browser = await launchBrowser();
    if (options.page || options.login) {
      ({ context: made.context, page: made.page } = await newPage(made.browser, made.server.baseUrl));
      if (options.login) await login(made.page, options.login);
    }
    await options.ready?.(e2e);
  }, options.timeout);

  if (options.walk) {
    const walk = options.walk;
    let broken = false;
    beforeEach((ctx) => {
      if (broken) ctx.skip();
    });
    afterEach(async (ctx) => {
      if (ctx.task.result?.state !== 'fail') return;
      broken = true;
      const pages: Array<[string, Page | undefined]> = walk.pages ? walk.pages() : [['', made.page]];
      for (const [label, p] of pages) {
        if (!p) continue;
        console.log(`failed at ${p.url()}${label ? ` (${label})` : ''}; toasts: ${JSON.stringify(await p.locator('.ant-message-notice-content').allInnerTexts().catch(() => []))}`);
        await p.mouse.move(600, 890).catch(() => undefined);
        await screenshot(p, `${walk.shots}/failure${label ? `-${label}` : ''}`).catch(() => undefined);
      }
    });
  }

  afterAll(async () => {
    await made.context?.close();
    await made.browser?.close();
    await made.server?.stop();
    await options.after?.();
  });

  return e2e;
}
