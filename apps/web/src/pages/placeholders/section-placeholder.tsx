import { Page } from '../../components/page';

/**
 * A section the dashboard does not have yet: its heading and nothing else (no made-up content); the API
 * already does it (see /docs).
 */
export function SectionPlaceholder({ title }: { title: string }) {
  return (
    <Page title={title}>
      <p>
        This section is not in the dashboard yet. The API does it already: see <a href="/docs/">the API documentation</a>.
      </p>
    </Page>
  );
}
