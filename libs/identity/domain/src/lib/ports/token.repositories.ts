import { Page, PageRequest } from '@lnk/shared/kernel';
import { AuthorizationCode, OAuthToken, PersonalAccessToken } from '../model/tokens';

export abstract class OAuthTokenRepository {
  abstract insert(token: OAuthToken): Promise<void>;
  abstract findByAccessHash(hash: string): Promise<OAuthToken | null>;
  abstract findByRefreshHash(hash: string): Promise<OAuthToken | null>;
  /** Marks the refresh token used, only if it was not already: true for the one caller that wins. */
  abstract markRotated(id: string, at: Date): Promise<boolean>;
  abstract revoke(id: string, at: Date): Promise<void>;
  abstract revokeFamily(familyId: string, at: Date): Promise<void>;
  abstract revokeIssuedByCode(authorizationCodeId: string, at: Date): Promise<void>;
  /** Revokes every token of the user, except one (the caller's own) when given. */
  abstract revokeAllOfUser(userId: string, at: Date, exceptTokenId?: string): Promise<void>;
  abstract revokeAllOfClient(clientId: string, at: Date): Promise<void>;
}

/** How many PATs an account may hold (see `PatLimits` in personal-access-token-mint.ts). */
export interface PatRoom {
  /** Active ones: not revoked, not expired at `now`. */
  maxActive: number;
  /** Expired ones kept (listed with isExpired) beyond which the longest expired are deleted. */
  keptExpired: number;
}

export abstract class PersonalAccessTokenRepository {
  /**
   * Stores the token unless its user already holds `room.maxActive` active PATs (answering how many they
   * hold either way); concurrent calls for one user are serialised, so together they cannot pass the
   * bound. The user's expired PATs beyond the `room.keptExpired` most recently expired are deleted.
   */
  abstract insertWithinLimit(token: PersonalAccessToken, room: PatRoom, now: Date): Promise<{ stored: boolean; active: number }>;
  abstract findByHash(hash: string): Promise<PersonalAccessToken | null>;
  abstract findOfUser(userId: string, id: string): Promise<PersonalAccessToken | null>;
  abstract listOfUser(userId: string, page: PageRequest): Promise<Page<PersonalAccessToken>>;
  /** Deletes the user's token; false when the user has no such token. */
  abstract deleteOfUser(userId: string, id: string): Promise<boolean>;
  /** Deletes every token of the user but `exceptId` when given (a password change ends them all); answers how many. */
  abstract deleteAllOfUser(userId: string, exceptId?: string): Promise<number>;
  abstract touch(id: string, at: Date): Promise<void>;
}

export abstract class AuthorizationCodeRepository {
  abstract insert(code: AuthorizationCode): Promise<void>;
  abstract findByHash(hash: string): Promise<AuthorizationCode | null>;
  /** Marks the code used, only if it was not already: true for the one caller that wins. */
  abstract consume(id: string, at: Date): Promise<boolean>;
}
