import { useEffect } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { Redirect, Route, Router, Switch } from 'wouter';
import { queryClient, session } from './api/client';
import { Loading } from './components/states';
import { AccountPage } from './pages/account/account-page';
import { DomainsPage } from './pages/domains/domains-page';
import { ImportExportPage } from './pages/links/import-export-page';
import { EditLinkPage, NewLinkPage } from './pages/links/link-form-page';
import { LinkPage } from './pages/links/link-page';
import { LinksPage } from './pages/links/links-page';
import { OAuthAppsPage } from './pages/oauth-apps/oauth-apps-page';
import { PlanPage } from './pages/plan/plan-page';
import { TagsPage } from './pages/tags/tags-page';
import { TokensPage } from './pages/tokens/tokens-page';
import { WebhooksPage } from './pages/webhooks/webhooks-page';
import { Layout } from './shell/layout';
import { NotFound } from './shell/not-found';
import { SignIn } from './shell/sign-in';
import { useSession } from './shell/use-session';

/**
 * The dashboard's routes, under /app. A section is one folder of pages/ and a line or a few here.
 */
function Routes() {
  return (
    <Switch>
      <Route path="/" component={LinksPage} />
      <Route path="/links" component={LinksPage} />
      <Route path="/links/new" component={NewLinkPage} />
      <Route path="/links/import" component={ImportExportPage} />
      <Route path="/links/:id/edit" component={EditLinkPage} />
      <Route path="/links/:id" component={LinkPage} />
      <Route path="/domains" component={DomainsPage} />
      <Route path="/tags" component={TagsPage} />
      <Route path="/webhooks" component={WebhooksPage} />
      <Route path="/tokens" component={TokensPage} />
      <Route path="/oauth-apps" component={OAuthAppsPage} />
      <Route path="/account" component={AccountPage} />
      <Route path="/plan" component={PlanPage} />
      {/* Where a failed sign-in comes back to; once signed in, the start. */}
      <Route path="/sign-in">{() => <Redirect to="/" replace />}</Route>
      <Route component={NotFound} />
    </Switch>
  );
}

function Dashboard() {
  const state = useSession();
  useEffect(() => {
    void session.start();
  }, []);
  useEffect(() => {
    // Another account's data must not outlive its session in the cache.
    if (state.status === 'signed-out') queryClient.clear();
  }, [state.status]);
  if (state.status === 'starting') {
    return (
      <main className="sign-in" id="main">
        <Loading what="Opening your dashboard" />
      </main>
    );
  }
  if (state.status === 'signed-out') return <SignIn reason={state.reason} />;
  return (
    <Layout user={state.user}>
      <Routes />
    </Layout>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Router base="/app">
        <Dashboard />
      </Router>
    </QueryClientProvider>
  );
}
