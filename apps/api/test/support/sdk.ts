import { type Client, createLnkClient, type LnkClientOptions } from '@lnk/sdk';
import { buildOpenApiDocument } from '../../src/openapi/openapi';
import { ResponseContract } from './contract';
import type { TestApp } from './test-app';

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** fetch, with every answer checked against the app's OpenAPI document as `TestApp.request` checks its own. */
export function contractCheckedFetch(t: TestApp): typeof fetch {
  const contract = new ResponseContract(buildOpenApiDocument(t.app));
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const text = await response.clone().text();
    const url = new URL(request.url);
    const body = text ? parse(text) : undefined;
    const broken = contract.check(request.method, url.pathname + url.search, response.status, response.headers.get('content-type'), body);
    if (broken.length) {
      throw new Error(`The answer breaks the OpenAPI document:\n  ${broken.join('\n  ')}\nbody: ${text.slice(0, 500)}`);
    }
    return response;
  };
}

/** An SDK client of the test app, its answers checked against the document. */
export function sdkClient(t: TestApp, options: Omit<LnkClientOptions, 'baseUrl' | 'fetch'> & { baseUrl?: string } = {}): Client {
  return createLnkClient({ baseUrl: t.baseUrl, fetch: contractCheckedFetch(t), ...options });
}
