import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml, pageHeaders, prefersHtml, Public, Route } from '@lnk/shared/http';
import { HomeSchema } from './home.schemas';
import { ResolveRedirectUseCase } from '@lnk/links/domain';
import { AppConfig, APP_CONFIG } from '@lnk/composition';
import { SERVICE_VERSION } from '../../version';
import { hostOf } from '../redirect/request-host';
import { presentHome, SERVICE_NAME } from './home.presenter';
import { notFoundPage } from '@lnk/links/adapter-http';

function homePage(version: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SERVICE_NAME} API</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;` +
    `color:#222}</style></head>
<body><h1>${SERVICE_NAME}</h1><p>A link-shortening service: an HTTP/JSON API for short links on custom domains, and the redirect server ` +
    `that answers them.</p>
<ul><li><a href="/docs">API documentation</a> (Swagger UI)</li><li><a href="/openapi.json">OpenAPI document</a></li></ul>
<p>Version ${escapeHtml(version)}</p></body></html>`
  );
}

/**
 * The service's home at `/`: a page naming the service and linking its documentation (JSON for API
 * clients). A verified custom domain's `/` belongs to its owner and stays the not-found page; a short
 * domain of its own (SHORT_BASE_URL's host is not PUBLIC_BASE_URL's) redirects to NOT_FOUND_REDIRECT_URL
 * when that is set.
 */
@Controller()
@Public()
export class HomeController {
  private readonly shortHost: string;
  private readonly publicHost: string;

  constructor(
    private readonly redirects: ResolveRedirectUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.shortHost = new URL(config.shortBaseUrl).hostname.toLowerCase();
    this.publicHost = new URL(config.publicBaseUrl).hostname.toLowerCase();
  }

  @Route('GET', '', {
    operationId: 'getHome',
    answers: HomeSchema,
    page: true,
    redirect: "on SHORT_BASE_URL's host, when it is not PUBLIC_BASE_URL's, to NOT_FOUND_REDIRECT_URL if set",
    errors: { 404: 'html' },
    summary: 'Service home',
    description:
      'The service name, its version and where its documentation is (`/docs`, `/openapi.json`); an ' +
      'HTML page for a browser. A verified custom domain answers its not-found page here.',
  })
  async home(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const host = hostOf(request);
    if (host !== this.publicHost && (await this.redirects.isCustomDomain(host))) {
      return void reply.code(404).headers(pageHeaders()).send(notFoundPage());
    }
    const redirect = this.config.notFoundRedirectUrl;
    if (redirect && host === this.shortHost && this.shortHost !== this.publicHost) {
      return void reply.code(302).header('location', redirect).header('cache-control', 'private, max-age=0').send();
    }
    if (prefersHtml(request.headers.accept)) return void reply.code(200).headers(pageHeaders()).send(homePage(SERVICE_VERSION));
    void reply
      .code(200)
      .type('application/json; charset=utf-8')
      .send({ status: 200, code: 'OK', message: `${SERVICE_NAME} API`, data: presentHome(this.config.publicBaseUrl, SERVICE_VERSION) });
  }
}
