import { API_CONTROLLERS } from './app.module';
import { responseTable, routesOf, scopeTable } from '@lnk/shared/http';

/**
 * The app's routes as their handlers declare them, for the e2e suites, which list them before any app
 * starts. Derived, never written: the access guard and the OpenAPI document read the same decorators.
 */
export const ROUTE_SCOPES = scopeTable(routesOf(API_CONTROLLERS));
export const ROUTE_RESPONSES = responseTable(routesOf(API_CONTROLLERS));
