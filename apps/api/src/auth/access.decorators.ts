import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'lnk:public';
export const REQUIRED_SCOPES = 'lnk:scopes';

/** The route needs no token (OAuth endpoints, health, redirects). Every other route declares scopes. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** The scope a bearer token must carry for this route (spec section 4). */
export const RequireScopes = (...scopes: string[]): MethodDecorator & ClassDecorator => SetMetadata(REQUIRED_SCOPES, scopes);
