import { Principal } from '../model/tokens';

/** A bearer token accepted: whom it stands for, and until when (null: until it is revoked). */
export interface AcceptedToken {
  principal: Principal;
  expiresAt: Date | null;
}

/**
 * The principal a bearer token (an OAuth access token or a PAT, by its hash) stands for while the token is
 * active; null for none. Read on every authenticated request: an adapter may keep answers, as long as none
 * outlives its token or a revocation (see RevocationListener).
 */
export abstract class BearerPrincipals {
  abstract accepted(hash: string, kind: 'access_token' | 'personal_access_token', now: Date): Promise<AcceptedToken | null>;
}
