import { lintSnippets, type LintMessage as Message } from './lint-snippets';

/**
 * Every snippet the tests lint, each as if it were the named file: linted once, in one ESLint process
 * with the workspace's real configuration.
 */
const SNIPPETS = new Map<string, Message[]>();
const key = (filePath: string, source: string) => `${filePath}\n${source}`;
const wanted: { filePath: string; source: string }[] = [];
function snippet(filePath: string, source: string) {
  wanted.push({ filePath, source });
  return { filePath, source };
}

function lint(filePath: string, source: string): Message[] {
  const messages = SNIPPETS.get(key(filePath, source));
  if (!messages) throw new Error(`snippet not declared before the lint run: ${filePath}`);
  return messages;
}

const rules = (messages: Message[]) => messages.map((m) => m.ruleId);
const ruleOf = ({ filePath, source }: { filePath: string; source: string }) => rules(lint(filePath, source));
const messagesOf = ({ filePath, source }: { filePath: string; source: string }) => lint(filePath, source);

const DOMAIN_FILE = 'libs/links/domain/src/lib/fixture.ts';
const cleanDomain = snippet(DOMAIN_FILE, `import { ValidationError } from '@lnk/shared/kernel';\nexport const e = ValidationError;\n`);
const domainViolations = [
  ['an ORM', `import { DataSource } from 'typeorm';\nexport const x = DataSource;\n`, '@nx/enforce-module-boundaries'],
  ['the framework', `import { Injectable } from '@nestjs/common';\nexport const x = Injectable;\n`, '@nx/enforce-module-boundaries'],
  ['a database driver', `import { Pool } from 'pg';\nexport const x = Pool;\n`, '@nx/enforce-module-boundaries'],
  ['Node network I/O', `import { connect } from 'node:net';\nexport const x = connect;\n`, 'no-restricted-imports'],
  ['Node file I/O', `import { readFileSync } from 'fs';\nexport const x = readFileSync;\n`, 'no-restricted-imports'],
  ['another context', `import { User } from '@lnk/identity/domain';\nexport const x = User;\n`, '@nx/enforce-module-boundaries'],
  [
    'an adapter',
    `import { TypeormUserRepository } from '@lnk/identity/adapter-typeorm';\nexport const x = TypeormUserRepository;\n`,
    '@nx/enforce-module-boundaries',
  ],
].map(([what, source, rule]) => ({ what, rule, code: snippet(DOMAIN_FILE, source) }));
const kernelCrypto = snippet(
  'libs/shared/kernel/src/lib/fixture.ts',
  `import { randomBytes } from 'node:crypto';\nexport const x = randomBytes;\n`,
);
const adapterOwn = snippet(
  'libs/identity/adapter-typeorm/src/lib/fixture.ts',
  `import { DataSource } from 'typeorm';\nimport { User } from '@lnk/identity/domain';\nexport const x = [DataSource, User];\n`,
);
const adapterOther = snippet(
  'libs/identity/adapter-typeorm/src/lib/fixture.ts',
  `import { BcryptPasswordHasher } from '@lnk/identity/adapter-crypto';\nexport const x = BcryptPasswordHasher;\n`,
);
const appAdapter = snippet(
  'apps/api/src/fixture.ts',
  `import { TypeormUserRepository } from '@lnk/identity/adapter-typeorm';\nexport const x = TypeormUserRepository;\n`,
);
const adapterFramework = snippet(
  'libs/identity/adapter-typeorm/src/lib/fixture.ts',
  `import { Injectable } from '@nestjs/common';\nexport const x = Injectable;\n`,
);
const NEST_FILE = 'libs/links/adapter-nest/src/lib/fixture.ts';
const nestOwn = snippet(
  NEST_FILE,
  `import { Controller } from '@nestjs/common';\nimport { GetLinkUseCase } from '@lnk/links/domain';\nimport ` +
    `{ Route } from '@lnk/shared/http';\nexport const x = [Controller, GetLinkUseCase, Route];\n`,
);
const nestViolations = [
  ['an adapter', `import { TypeormLinkRepository } from '@lnk/links/adapter-typeorm';\nexport const x = TypeormLinkRepository;\n`],
  ['another context', `import { Principal } from '@lnk/identity/domain';\nexport type X = Principal;\n`],
].map(([what, source]) => ({ what, code: snippet(NEST_FILE, source) }));
const nestSource = `import { LinksModule } from '@lnk/links/adapter-nest';\nexport const x = LinksModule;\n`;
const nestImporters = [
  ['an adapter', 'libs/links/adapter-typeorm/src/lib/fixture.ts'],
  ['the shared HTTP library', 'libs/shared/http/src/lib/fixture.ts'],
  ['a domain library', DOMAIN_FILE],
].map(([what, filePath]) => ({ what, code: snippet(filePath, nestSource) }));
const appNest = snippet('apps/api/src/fixture.ts', nestSource);
const BRIDGE_FILE = 'libs/bridges/src/lib/fixture.ts';
const bridgeDomains = snippet(
  BRIDGE_FILE,
  `import { LinkRepository } from '@lnk/links/domain';\nimport { DomainRepository } from ` +
    `'@lnk/domains/domain';\nexport const x = [LinkRepository, DomainRepository];\n`,
);
const bridgeAdapter = snippet(
  BRIDGE_FILE,
  `import { TypeormLinkRepository } from '@lnk/links/adapter-typeorm';\nexport const x = TypeormLinkRepository;\n`,
);
const bridgeFramework = snippet(BRIDGE_FILE, `import { Injectable } from '@nestjs/common';\nexport const x = Injectable;\n`);
// shared-config imports the kernel, so the kernel importing shared-config closes a cycle the tags allow.
const kernelCycle = snippet(
  'libs/shared/kernel/src/lib/fixture.ts',
  `import { readVariables } from '@lnk/shared/config';\nexport const x = readVariables;\n`,
);
const testingSource = `import { FixedClock } from '@lnk/shared/testing';\nexport const x = FixedClock;\n`;
const testingInProduction = snippet(DOMAIN_FILE, testingSource);
const testingInTest = snippet('libs/links/domain/src/lib/fixture.spec.ts', testingSource);
// A context's fakes and contracts (libs/<context>/testing): its own libraries' tests and the apps' tests use them.
const linksFakes = `import { memoryLinksRepositories } from '@lnk/links/testing';\nexport const x = memoryLinksRepositories;\n`;
const ownFakesInDomainSpec = snippet('libs/links/domain/src/lib/fixture.spec.ts', linksFakes);
const ownContractInAdapterSpec = snippet(
  'libs/links/adapter-typeorm/src/lib/fixture.int-spec.ts',
  `import { describeLinkRepositoryContract } from '@lnk/links/testing';\nexport const x = describeLinkRepositoryContract;\n`,
);
const anyFakesInAppTest = snippet(
  'apps/api/test/fixture.e2e-spec.ts',
  `import { MemoryUserRepository } from '@lnk/identity/testing';\nimport { memoryLinksRepositories } from ` +
    `'@lnk/links/testing';\nexport const x = [MemoryUserRepository, memoryLinksRepositories];\n`,
);
const otherFakesInDomainSpec = snippet('libs/identity/domain/src/lib/fixture.spec.ts', linksFakes);
const otherFakesInAdapterSpec = snippet('libs/identity/adapter-typeorm/src/lib/fixture.int-spec.ts', linksFakes);
const fakesInDomain = snippet(DOMAIN_FILE, linksFakes);
const fakesInApp = snippet('apps/api/src/fixture.ts', linksFakes);
const sharedTestingInApp = snippet('apps/redirect/src/fixture.ts', testingSource);
const TESTING_FILE = 'libs/links/testing/src/lib/fixture.ts';
const testingOwnDomain = snippet(TESTING_FILE, `import { LinkRepository } from '@lnk/links/domain';\nexport const x = LinkRepository;\n`);
const testingOtherDomain = snippet(
  TESTING_FILE,
  `import { UserRepository } from '@lnk/identity/domain';\nexport const x = UserRepository;\n`,
);
const sharedTestingContext = snippet(
  'libs/shared/testing/src/lib/fixture.ts',
  `import { LinkRepository } from '@lnk/links/domain';\nexport const x = LinkRepository;\n`,
);

// libs/sdk: the generated client, published on its own. Apps and their tests use it; no library does, and it
// uses nothing of ours, no package and no Node built-in (it runs in browsers).
const sdkSource = `import { createLink } from '@lnk/sdk';\nexport const x = createLink;\n`;
const sdkInDomain = snippet(DOMAIN_FILE, sdkSource);
const sdkInAdapter = snippet('libs/links/adapter-typeorm/src/lib/fixture.ts', sdkSource);
const sdkInDomainTest = snippet('libs/links/domain/src/lib/fixture.spec.ts', sdkSource);
const sdkInAppTest = snippet('apps/api/test/fixture.e2e-spec.ts', sdkSource);
const SDK_FILE = 'libs/sdk/src/fixture.ts';
const sdkUsesKernel = snippet(SDK_FILE, `import { ValidationError } from '@lnk/shared/kernel';\nexport const x = ValidationError;\n`);
const sdkUsesPackage = snippet(SDK_FILE, `import { Pool } from 'pg';\nexport const x = Pool;\n`);
const sdkUsesNode = snippet(SDK_FILE, `import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n`);
const sdkOwn = snippet(SDK_FILE, `import { createLink } from './generated/index.js';\nexport const x = createLink;\n`);

// libs/composition: the composition root the apps share. It binds every context's adapters and faces; only apps import it.
const compositionSource = `import { composeContexts } from '@lnk/composition';\nexport const x = composeContexts;\n`;
const compositionInApps = ['apps/api/src/fixture.ts', 'apps/cli/src/fixture.ts'].map((filePath) => snippet(filePath, compositionSource));
const compositionImporters = [
  ['a domain library', DOMAIN_FILE],
  ['an adapter', 'libs/links/adapter-typeorm/src/lib/fixture.ts'],
  ['an adapter-nest library', NEST_FILE],
  ['a platform library', 'libs/shared/http/src/lib/fixture.ts'],
  ['the bridges', BRIDGE_FILE],
  ["a context's testing library", TESTING_FILE],
].map(([what, filePath]) => ({ what, code: snippet(filePath, compositionSource) }));
const COMPOSITION_FILE = 'libs/composition/src/lib/fixture.ts';
// The redirect app composes the short-URL edge through its own entry point, never the index (Nest and every context).
const edgeInRedirect = snippet(
  'apps/redirect/src/fixture.ts',
  `import { composeShortUrlEdge } from '@lnk/composition/edge';\nexport const x = composeShortUrlEdge;\n`,
);
const indexInRedirect = snippet('apps/redirect/src/fixture.ts', compositionSource);
// The operator CLI's commands (libs/cli): its app runs them, the API's tests run them in process; the composition root does not.
const cliSource = `import { runCli } from '@lnk/cli';\nexport const x = runCli;\n`;
const cliInCliApp = snippet('apps/cli/src/fixture.ts', cliSource);
const cliInApiTest = snippet('apps/api/test/fixture.e2e-spec.ts', cliSource);
const cliInComposition = snippet('libs/composition/src/lib/fixture.ts', cliSource);
const cliInNest = snippet(NEST_FILE, cliSource);
const compositionBinds = snippet(
  COMPOSITION_FILE,
  `import { TypeormLinkRepository } from '@lnk/links/adapter-typeorm';\nimport { LinksModule } from ` +
    `'@lnk/links/adapter-nest';\nimport { ClickRecorderViaAnalytics } from '@lnk/bridges';\nexport ` +
    'const x = [TypeormLinkRepository, LinksModule, ClickRecorderViaAnalytics];\n',
);
const compositionFakes = snippet(COMPOSITION_FILE, linksFakes);
const compositionSdk = snippet(COMPOSITION_FILE, sdkSource);

describe('module boundaries', () => {
  beforeAll(() => {
    lintSnippets(wanted).forEach((messages, i) => SNIPPETS.set(key(wanted[i].filePath, wanted[i].source), messages));
  }, 60_000);

  it('lets a domain library import the kernel', () => {
    expect(messagesOf(cleanDomain)).toEqual([]);
  });

  it.each(domainViolations)('stops a domain library importing $what', ({ code, rule }) => {
    expect(ruleOf(code)).toContain(rule);
  });

  it('keeps the kernel as pure as a domain', () => {
    expect(ruleOf(kernelCrypto)).toContain('no-restricted-imports');
  });

  it('lets an adapter use its ORM and its own domain, but not another adapter', () => {
    expect(messagesOf(adapterOwn)).toEqual([]);
    expect(ruleOf(adapterOther)).toContain('@nx/enforce-module-boundaries');
  });

  it('lets the bridges library join contexts through their domains only, as pure code', () => {
    expect(messagesOf(bridgeDomains)).toEqual([]);
    expect(ruleOf(bridgeAdapter)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(bridgeFramework)).toContain('@nx/enforce-module-boundaries');
  });

  it('lets the app import adapters', () => {
    expect(messagesOf(appAdapter)).toEqual([]);
  });

  it("keeps Nest out of adapters (a context's HTTP face is its adapter-nest library)", () => {
    expect(ruleOf(adapterFramework)).toContain('@nx/enforce-module-boundaries');
  });

  it('lets an adapter-nest library use Nest, its own domain and the shared HTTP library', () => {
    expect(messagesOf(nestOwn)).toEqual([]);
  });

  it.each(nestViolations)('stops an adapter-nest library importing $what', ({ code }) => {
    expect(ruleOf(code)).toContain('@nx/enforce-module-boundaries');
  });

  it.each(nestImporters)('stops $what importing an adapter-nest library (only apps do)', ({ code }) => {
    expect(ruleOf(code)).toContain('@nx/enforce-module-boundaries');
  });

  it('lets the app import an adapter-nest library', () => {
    expect(messagesOf(appNest)).toEqual([]);
  });

  // Only seen since the project graph has its edges (nx.json turns on the analysis of imports).
  it('reports a cycle between libraries that the tags would allow', () => {
    expect(messagesOf(kernelCycle)).toEqual([
      expect.objectContaining({
        ruleId: '@nx/enforce-module-boundaries',
        message: expect.stringContaining('Circular dependency between "shared-kernel" and "shared-config"'),
      }),
    ]);
  });

  it('lets the composition library bind adapters, HTTP faces and bridges, but not fakes or the SDK', () => {
    expect(messagesOf(compositionBinds)).toEqual([]);
    expect(ruleOf(compositionFakes)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(compositionSdk)).toContain('@nx/enforce-module-boundaries');
  });

  it('lets the apps (the API, the CLI) import the composition library', () => {
    for (const code of compositionInApps) expect(messagesOf(code)).toEqual([]);
  });

  it(
    'lets the redirect app import the short-URL edge of the composition ' +
      'library, and not its index (the redirect app kept free of Nest)',
    () => {
      expect(messagesOf(edgeInRedirect)).toEqual([]);
      expect(ruleOf(indexInRedirect)).toContain('no-restricted-imports');
    },
  );

  it("lets the CLI app and the API's tests run the CLI's commands, and keeps them out of the composition root and of libraries", () => {
    expect(messagesOf(cliInCliApp)).toEqual([]);
    expect(messagesOf(cliInApiTest)).toEqual([]);
    expect(ruleOf(cliInComposition)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(cliInNest)).toContain('@nx/enforce-module-boundaries');
  });

  it.each(compositionImporters)('stops $what importing the composition library (only apps do)', ({ code }) => {
    expect(ruleOf(code)).toContain('@nx/enforce-module-boundaries');
  });

  it('lets the apps and their tests use the SDK, and no library (not even in its tests)', () => {
    expect(messagesOf(sdkInAppTest)).toEqual([]);
    expect(ruleOf(sdkInDomain)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(sdkInAdapter)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(sdkInDomainTest)).toContain('@nx/enforce-module-boundaries');
  });

  it('keeps the SDK to its own files: no library of ours, no package, no Node built-in', () => {
    expect(messagesOf(sdkOwn)).toEqual([]);
    expect(ruleOf(sdkUsesKernel)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(sdkUsesPackage)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(sdkUsesNode)).toContain('no-restricted-imports');
  });

  it('keeps test support out of production code but lets tests use it', () => {
    expect(ruleOf(testingInProduction)).toContain('@nx/enforce-module-boundaries');
    expect(messagesOf(testingInTest)).toEqual([]);
  });

  // The cycle a domain's specs and its own fakes make (each imports the other) is exempt for that pair only.
  it("lets a context's tests and the apps' tests use the context's fakes and contracts", () => {
    expect(messagesOf(ownFakesInDomainSpec)).toEqual([]);
    expect(messagesOf(ownContractInAdapterSpec)).toEqual([]);
    expect(messagesOf(anyFakesInAppTest)).toEqual([]);
    expect(messagesOf(testingOwnDomain)).toEqual([]);
  });

  it("stops a context's tests using another context's fakes", () => {
    expect(ruleOf(otherFakesInDomainSpec)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(otherFakesInAdapterSpec)).toContain('@nx/enforce-module-boundaries');
  });

  it("keeps every testing library out of production code, the apps' included", () => {
    expect(ruleOf(fakesInDomain)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(fakesInApp)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(sharedTestingInApp)).toContain('@nx/enforce-module-boundaries');
  });

  // What keeps `nx affected` from naming every context when one domain changes: no testing library ties two contexts.
  it("keeps a context's testing library to its context, and the shared one to none", () => {
    expect(ruleOf(testingOtherDomain)).toContain('@nx/enforce-module-boundaries');
    expect(ruleOf(sharedTestingContext)).toContain('@nx/enforce-module-boundaries');
  });
});
