/** An identity provider's account (OpenID Connect `iss` and `sub`, stable where e-mail is not) linked to a user. */
export interface IdpIdentity {
  issuer: string;
  subject: string;
  userId: string;
  createdAt: Date;
}

export abstract class IdpIdentityRepository {
  /** The user the provider's account is linked to, or null. */
  abstract findUserId(issuer: string, subject: string): Promise<string | null>;
  /** Links the provider's account to the user; false (and nothing changed) when it is linked already. */
  abstract link(identity: IdpIdentity): Promise<boolean>;
}
