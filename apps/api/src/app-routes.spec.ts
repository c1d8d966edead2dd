import { SCOPES } from '@lnk/identity/domain';
import { LinkSchema } from '@lnk/links/adapter-nest';
import { SubscriptionSchema } from '@lnk/billing/adapter-nest';
import { CertificateHostSchema } from '@lnk/domains/adapter-nest';
import { WebhookSchema } from '@lnk/webhooks/adapter-nest';
import { SignInSchema, UserSchema } from '@lnk/identity/adapter-nest';
import { responseTable, routesOf, scopeTable, undeclaredRoutes } from '@lnk/shared/http';
import { API_CONTROLLERS } from './app.module';

describe("the app's route declarations", () => {
  // Deny by default and a document without holes: every route of the app (its own controllers and each
  // context module's) says who may call it, with a scope a token can carry, and what it answers.
  it('has every route of the app either public or scoped (never both) by a scope tokens carry, with its answer declared', () => {
    expect(undeclaredRoutes(routesOf(API_CONTROLLERS), SCOPES)).toEqual([]);
  });

  // The tables the e2e suites walk come from the handlers, keyed as Nest and OpenAPI spell the paths.
  it("derives the scope and answer tables from the handlers, the links context's among them", () => {
    const routes = routesOf(API_CONTROLLERS);
    expect(scopeTable(routes)).toMatchObject({
      'GET /user/link/:id': 'links:read',
      'DELETE /user/tag/:id': 'tags:write',
      'DELETE /user/tokens/:id': 'tokens:delete',
    });
    expect(scopeTable(routes)).not.toHaveProperty(['GET /health']);
    expect(responseTable(routes)['GET /user/link/{id}']?.data).toBe(LinkSchema);
  });

  // A context module's controllers left out of the app's list would escape the walk above.
  it("walks the analytics and webhooks contexts' routes, declared in their libraries", () => {
    const routes = routesOf(API_CONTROLLERS);
    expect(scopeTable(routes)).toMatchObject({
      'GET /user/stats': 'stats:read',
      'GET /user/stats/:dimension': 'stats:read',
      'POST /user/webhooks/:id/rotate-secret': 'webhooks:write',
    });
    expect(responseTable(routes)['GET /user/webhooks/{id}']?.data).toBe(WebhookSchema);
  });

  // A module's controllers left out of API_CONTROLLERS would still serve, unseen by the route walk and the e2e tables.
  it("lists the billing and domains contexts' routes, public ones included, from their modules' controllers", () => {
    const routes = routesOf(API_CONTROLLERS);
    expect(scopeTable(routes)).toMatchObject({
      'GET /user/subscription/current': 'subscription:read',
      'POST /user/domain/:id/verify': 'domains:write',
    });
    expect(responseTable(routes)['GET /user/subscription/current']?.data).toBe(SubscriptionSchema);
    expect(responseTable(routes)['GET /tls/ask']?.data).toBe(CertificateHostSchema);
    expect(Object.keys(responseTable(routes))).toEqual(
      expect.arrayContaining(['POST /billing/stripe/webhook', 'GET /billing/sandbox/{sessionId}', 'POST /billing/sandbox/{sessionId}']),
    );
  });

  // The identity module's controllers, the public OAuth endpoints and verification pages among them.
  it("lists the identity context's routes, public ones included, from its module's controllers", () => {
    const routes = routesOf(API_CONTROLLERS);
    expect(scopeTable(routes)).toMatchObject({
      'GET /user/me': 'user:read',
      'DELETE /user/me': 'user:write',
      'POST /user/tokens/revoke-all': 'tokens:delete',
      'POST /user/oauth-clients/:id/regenerate-secret': 'tokens:write',
    });
    expect(responseTable(routes)['GET /user/me']?.data).toBe(UserSchema);
    expect(responseTable(routes)['POST /oauth/token']?.data).toBe(SignInSchema);
    expect(Object.keys(responseTable(routes))).toEqual(
      expect.arrayContaining(['GET /oauth/authorize/page', 'POST /oauth/authorize', 'GET /auth/verify-email', 'POST /auth/verify-email']),
    );
  });
});
