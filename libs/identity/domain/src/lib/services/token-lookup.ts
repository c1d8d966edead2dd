import { kindOf, OAuthToken, PersonalAccessToken, TokenKind } from '../model/tokens';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';

type Found = { kind: 'access_token' | 'refresh_token'; token: OAuthToken } | { kind: 'personal_access_token'; token: PersonalAccessToken };

/** The stored token a presented value stands for, if any. */
export async function findToken(
  value: string | undefined,
  oauthTokens: OAuthTokenRepository,
  /** Null: PATs are not looked up. */
  pats: PersonalAccessTokenRepository | null,
  hasher: SecretHasher,
): Promise<Found | null> {
  const kind: TokenKind | null = value && value.length <= 256 ? kindOf(value) : null;
  if (!value || !kind) return null;
  const hash = hasher.hash(value);
  if (kind === 'personal_access_token') {
    const token = pats ? await pats.findByHash(hash) : null;
    return token ? { kind, token } : null;
  }
  const token = kind === 'access_token' ? await oauthTokens.findByAccessHash(hash) : await oauthTokens.findByRefreshHash(hash);
  return token ? { kind, token } : null;
}
