import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * docker/compose.yaml as Compose reads it, with .env.example: the Compose file's schema (healthchecks,
 * depends_on conditions, ...) and its variables, without a Docker engine. Debian's `docker-compose`
 * (1.29, `apt-get install docker-compose`; .ci/run installs it) or the `docker compose` plugin.
 */
const root = join(__dirname, '..', '..', '..');
const COMPOSE_FILE = join(root, 'docker', 'compose.yaml');
const ENV_EXAMPLE = join(root, '.env.example');

function composeCommand(): string[] | null {
  for (const command of [['docker-compose'], ['docker', 'compose']]) {
    const probe = spawnSync(command[0], [...command.slice(1), 'version'], { encoding: 'utf8' });
    if (probe.status === 0) return command;
  }
  return null;
}

const compose = composeCommand();
const describeWithCompose: jest.Describe = compose
  ? describe
  : (((name: string, fn: () => void) => {
      process.stderr.write(
        `[compose tests] skipped "${name}": neither docker-compose nor the docker ` +
          'compose plugin is installed (apt-get install docker-compose)\n',
      );
      describe.skip(name, fn);
    }) as jest.Describe);

/** `config` of the compose file with `envFile`, in an environment holding none of the file's variables. */
function config(envFile: string): { status: number | null; output: string } {
  const [command, ...prefix] = compose as string[];
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !variablesOfComposeFile().has(name)));
  const run = spawnSync(command, [...prefix, '-f', COMPOSE_FILE, '--env-file', envFile, 'config'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The variables the compose file interpolates (`${NAME...}`); `$$` is a literal dollar sign. */
function variablesOfComposeFile(): Set<string> {
  const text = readFileSync(COMPOSE_FILE, 'utf8').replaceAll('$$', '');
  return new Set([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]));
}

function variablesOfEnvExample(): Set<string> {
  return new Set([...readFileSync(ENV_EXAMPLE, 'utf8').matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]));
}

describe('.env.example', () => {
  it('sets every variable docker/compose.yaml reads, and nothing it does not', () => {
    expect([...variablesOfEnvExample()].sort()).toEqual([...variablesOfComposeFile()].sort());
  });
});

describeWithCompose('docker/compose.yaml', () => {
  it('is valid Compose with .env.example: five services, each with a healthcheck, the apps from one named image', () => {
    const { status, output } = config(ENV_EXAMPLE);
    expect(output).not.toMatch(/invalid|error/i);
    expect(status).toBe(0);
    for (const service of ['postgres', 'redis', 'api', 'redirect', 'worker']) expect(output).toMatch(new RegExp(`^  ${service}:$`, 'm'));
    expect(output.match(/^ {4}healthcheck:$/gm)).toHaveLength(5);
    expect(output.match(/^ {4}image: lnk:latest$/gm)).toHaveLength(3);
    // /metrics wants its token; it is never left open.
    expect(output).not.toContain('METRICS_PUBLIC');
    expect(output.match(/^ {6}METRICS_TOKEN: change-me-metrics-token$/gm)).toHaveLength(3);
  });

  it('refuses to start without the secrets, naming the one missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lnk-compose-'));
    try {
      for (const secret of ['SECRET_KEY', 'METRICS_TOKEN', 'POSTGRES_PASSWORD']) {
        const envFile = join(dir, `without-${secret}`);
        writeFileSync(envFile, readFileSync(ENV_EXAMPLE, 'utf8').replace(new RegExp(`^${secret}=.*$`, 'm'), `${secret}=`));
        const { status, output } = config(envFile);
        expect(status).not.toBe(0);
        expect(output).toContain(`set ${secret} in .env`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is started as docs/self-hosting.md tells an operator to', () => {
    expect(readFileSync(join(root, 'docs', 'self-hosting.md'), 'utf8')).toContain(
      'docker compose --env-file .env -f docker/compose.yaml up -d --build',
    );
  });
});
