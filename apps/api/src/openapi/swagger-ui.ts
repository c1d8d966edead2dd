/**
 * What Swagger UI at /docs is given besides the document: a plugin and a style rule for its Authorize
 * dialog. The plugins run in the browser: @nestjs/swagger writes their source into `swagger-ui-init.js`, a
 * file of the page's own origin, so the docs' CSP (`script-src 'self'`) needs no inline script. They must
 * therefore use nothing from this module's scope, only their arguments and the page's globals.
 */

/** The few pieces of the DOM and of React the plugin touches (the API is compiled without the DOM library). */
interface DialogElement {
  scrollTop: number;
  querySelector(selectors: string): DialogElement | null;
  focus(options?: { preventScroll?: boolean }): void;
}

interface SwaggerUiSystem {
  React: {
    createElement(type: unknown, props: object | null, ...children: unknown[]): unknown;
    useRef<T>(initial: T): { current: T };
    useLayoutEffect(effect: () => void, deps: readonly unknown[]): void;
  };
}

type Component = (props: object) => unknown;

/**
 * Every field of the Authorize dialog that takes a credential has `autoFocus`, so the last one mounted,
 * below fifteen scopes in a scrolling body, took the focus and the dialog opened scrolled far from its top.
 * Once the dialog has mounted (its children's autofocus done), its first field takes the focus and its body
 * shows its top.
 */
function authorizeDialogOpensAtTop(system: SwaggerUiSystem) {
  const React = system.React;
  return {
    wrapComponents: {
      authorizationPopup: (Original: Component) => (props: object) => {
        const box = React.useRef<DialogElement | null>(null);
        React.useLayoutEffect(() => {
          const body = box.current?.querySelector('.modal-ux-content');
          body?.querySelector('input')?.focus({ preventScroll: true });
          if (body) body.scrollTop = 0;
        }, []);
        return React.createElement('div', { ref: box }, React.createElement(Original, props));
      },
    },
  };
}

/** Swagger UI's plugin that @nestjs/swagger's page lists by default; a `plugins` option replaces that list. */
function downloadUrl(system: unknown): unknown {
  return (
    globalThis as unknown as { SwaggerUIBundle: { plugins: { DownloadUrl(system: unknown): unknown } } }
  ).SwaggerUIBundle.plugins.DownloadUrl(system);
}

export const SWAGGER_UI_PLUGINS = [downloadUrl, authorizeDialogOpensAtTop];

/**
 * The Authorize dialog is centred with a body of up to 540px: on a shorter window its top (title and first
 * fields) was above the screen, out of reach. Its body now scrolls within the window's height. An inline
 * style, which the docs' CSP allows (`style-src 'unsafe-inline'`: Swagger UI sets inline styles itself).
 */
export const SWAGGER_UI_CSS = '.swagger-ui .dialog-ux .modal-ux-content { max-height: min(540px, calc(100vh - 120px)); }';
