import { Link } from 'wouter';
import { Page } from '../components/page';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>There is no page at this address in the dashboard.</p>
      <p>
        <Link href="/">Go to your links</Link>
      </p>
    </Page>
  );
}
