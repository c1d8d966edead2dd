import { pageOf, PageRequest } from '@lnk/shared/kernel';
import { OAuthClient, OAuthClientProps } from './model/oauth-client.entity';
import { OAuthClientRepository } from './ports/oauth-client.repository';
import { SecretHasher } from './ports/secret-hasher';
import { ClientAuthenticator } from './services/client-authenticator';
import { DASHBOARD_CLIENT_ID, WithBuiltInClients } from './services/built-in-clients';
import { ValidateAuthorizationRequestUseCase } from './use-cases/validate-authorization-request.use-case';

/** Rows by id, copied on the way in and out, as the TypeORM repository reads them. */
class RowsOfClients extends OAuthClientRepository {
  readonly rows = new Map<string, OAuthClientProps>();
  async insert(client: OAuthClient) {
    this.rows.set(client.id, client.toProps());
  }
  async findByClientId(clientId: string) {
    const row = [...this.rows.values()].find((r) => r.clientId === clientId);
    return row ? new OAuthClient({ ...row, scopes: [...row.scopes], redirectUris: [...row.redirectUris] }) : null;
  }
  async findById(id: string) {
    const row = this.rows.get(id);
    return row ? new OAuthClient({ ...row, scopes: [...row.scopes], redirectUris: [...row.redirectUris] }) : null;
  }
  async findOfOwner(ownerId: string, id: string) {
    const found = await this.findById(id);
    return found && found.isManagedBy(ownerId) ? found : null;
  }
  async listOfOwner(ownerId: string, _query: string | undefined, page: PageRequest) {
    const mine = [...this.rows.values()].filter((r) => !r.isFirstParty && r.ownerId === ownerId).map((r) => new OAuthClient(r));
    return pageOf(mine, mine.length, page);
  }
  async update(client: OAuthClient) {
    this.rows.set(client.id, client.toProps());
    return true;
  }
  async deleteOfOwner(ownerId: string, id: string) {
    return (await this.findOfOwner(ownerId, id)) ? this.rows.delete(id) : false;
  }
}

const now = new Date('2026-11-27T00:00:00.000Z');
const row = (over: Partial<OAuthClientProps>): OAuthClient =>
  new OAuthClient({
    id: 'c'.repeat(24),
    clientId: DASHBOARD_CLIENT_ID,
    secretHash: null,
    ownerId: null,
    requestedBy: null,
    name: 'lnk dashboard',
    description: '',
    scopes: [],
    redirectUris: [],
    isFirstParty: true,
    isActive: true,
    createdAt: now,
    updatedAt: now,
    ...over,
  });
const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('the built-in clients, configured at run time', () => {
  let stored: RowsOfClients;
  let clients: WithBuiltInClients;
  let validate: ValidateAuthorizationRequestUseCase;
  const settings = { redirectUris: ['https://lnk.example.com/app/auth/callback'], scopes: ['user:read', 'links:read'] as const };

  beforeEach(async () => {
    stored = new RowsOfClients();
    clients = new WithBuiltInClients(stored, {
      [DASHBOARD_CLIENT_ID]: { redirectUris: settings.redirectUris, scopes: [...settings.scopes] },
    });
    validate = new ValidateAuthorizationRequestUseCase(new ClientAuthenticator(clients, hasher));
  });

  const ask = (redirectUri: string, clientId = DASHBOARD_CLIENT_ID) =>
    validate.execute({ responseType: 'code', clientId, redirectUri, codeChallenge: challenge, codeChallengeMethod: 'S256' });

  it('gives the dashboard row the redirect URI and scopes of the configuration, found by client id or by id', async () => {
    await stored.insert(row({ redirectUris: ['http://old.example.com/app/auth/callback'] }));
    for (const found of [await clients.findByClientId(DASHBOARD_CLIENT_ID), await clients.findById('c'.repeat(24))]) {
      expect(found?.redirectUris).toEqual(settings.redirectUris);
      expect(found?.scopes).toEqual(settings.scopes);
      expect(found?.isConfidential).toBe(false);
    }
    const request = await ask('https://lnk.example.com/app/auth/callback');
    expect(request.scopes).toEqual(settings.scopes);
  });

  it('refuses the redirect URI a row kept from an earlier PUBLIC_BASE_URL (a stale row cannot send codes elsewhere)', async () => {
    await stored.insert(row({ redirectUris: ['http://old.example.com/app/auth/callback'] }));
    await expect(ask('http://old.example.com/app/auth/callback')).rejects.toThrow('redirect_uri is not registered for this client');
  });

  it(
    'leaves a client an account owns as stored, even under a built-in ' + "client id (an account cannot borrow the dashboard's redirect)",
    async () => {
      await stored.insert(
        row({ isFirstParty: false, ownerId: 'u'.repeat(24), secretHash: 'h:s', redirectUris: ['https://app.example.com/cb'] }),
      );
      expect((await clients.findByClientId(DASHBOARD_CLIENT_ID))?.redirectUris).toEqual(['https://app.example.com/cb']);
      await expect(ask('https://lnk.example.com/app/auth/callback')).rejects.toThrow('redirect_uri is not registered for this client');
    },
  );

  it('leaves every other client as stored, and an unknown one unknown', async () => {
    await stored.insert(
      row({ id: 'd'.repeat(24), clientId: 'cl_other', redirectUris: ['https://other.example.com/cb'], scopes: ['links:read'] }),
    );
    expect((await clients.findByClientId('cl_other'))?.toProps()).toEqual(stored.rows.get('d'.repeat(24)));
    expect(await clients.findByClientId(DASHBOARD_CLIENT_ID)).toBeNull();
  });
});
