import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core run in the page (through the DevTools protocol, which the page's CSP does not govern), with
 * the serious and critical violations it finds, each with where it found them.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  // Expressions as text: this file is type-checked without the DOM's names.
  const violations = await page.evaluate<AxeViolation[]>(
    "axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)",
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** From the dashboard's sign-in page through the service's authorization page and back, signed in. */
export async function signInThroughPages(page: Page, baseUrl: string, email: string, password: string, otp?: () => string): Promise<void> {
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'lnk dashboard wants to use your account' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Approve' }).click();
  if (otp) {
    await page.getByRole('alert').filter({ hasText: 'Enter the one-time code' }).waitFor();
    await page.getByLabel('Password').fill(password);
    await page.getByLabel(/One-time code/).fill(otp());
    await page.getByRole('button', { name: 'Approve' }).click();
  }
  await page.waitForURL(`${baseUrl}/app/**`);
}
