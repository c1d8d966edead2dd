import { Subscription } from '../model/subscription';

export abstract class SubscriptionRepository {
  /** Serialises changes to one account's subscriptions until the surrounding unit of work ends. */
  abstract lockOwner(userId: string): Promise<void>;
  /** The account's subscription that is not canceled, if it has one yet. */
  abstract findCurrent(userId: string): Promise<Subscription | null>;
  abstract findByCheckoutSession(checkoutSessionId: string): Promise<Subscription | null>;
  abstract findByProviderSubscription(providerSubscriptionId: string): Promise<Subscription | null>;
  abstract insert(subscription: Subscription): Promise<void>;
  abstract save(subscription: Subscription): Promise<void>;
  abstract deleteAllOfOwner(userId: string): Promise<void>;
}
