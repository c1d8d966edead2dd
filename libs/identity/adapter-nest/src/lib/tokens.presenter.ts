import type { PersonalAccessToken } from '@lnk/identity/domain';
import type { Static } from '@lnk/shared/http';
import type { CreatedPersonalAccessTokenSchema, PersonalAccessTokenDetailSchema, PersonalAccessTokenSchema } from './tokens.schemas';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentTokenListItem(token: PersonalAccessToken): Static<typeof PersonalAccessTokenSchema> {
  const p = token.props;
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    scopes: p.scopes,
    lastUsedAt: iso(p.lastUsedAt),
    expiresAt: iso(p.expiresAt),
    createdAt: p.createdAt.toISOString(),
  };
}

export function presentTokenDetail(token: PersonalAccessToken, now: Date): Static<typeof PersonalAccessTokenDetailSchema> {
  return {
    ...presentTokenListItem(token),
    isActive: token.isActive(now),
    isExpired: token.isExpired(now),
    updatedAt: token.props.updatedAt.toISOString(),
  };
}

/** The creation response: the only time the token value is shown. */
export function presentCreatedToken(token: PersonalAccessToken, value: string): Static<typeof CreatedPersonalAccessTokenSchema> {
  const p = token.props;
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    scopes: p.scopes,
    token: value,
    expiresAt: iso(p.expiresAt),
    createdAt: p.createdAt.toISOString(),
  };
}
